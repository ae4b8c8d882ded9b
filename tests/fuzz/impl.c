/* The implementation unit of the fuzz harnesses. */
#define CONTACT_IMPLEMENTATION
#include "contact.h"
