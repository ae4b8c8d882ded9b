/* Compile test: CONTACT_STATIC makes every function static; two translation units could
   each embed their own copy. Strict C99 with -Werror. */
#define CONTACT_STATIC
#define CONTACT_IMPLEMENTATION
#include "contact.h"
#include "tests/compile/api_list.h"

typedef void (*any_fn)(void);
#define TAKE(f) (any_fn)(f),
static const any_fn api[] = { CT_API_LIST(TAKE) (any_fn)0 };

int main(void) { return api[0] == 0; }
