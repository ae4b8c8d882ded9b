/* The implementation unit of the test binaries (compiled as C; impl.cpp compiles it as C++). */
#define CONTACT_IMPLEMENTATION
#include "contact.h"
