// Compile test: the header and its implementation as C++ (-pedantic -Werror), double and float.
#define CONTACT_IMPLEMENTATION
#include "contact.h"
#include "tests/compile/api_list.h"

typedef void (*any_fn)();
#define TAKE(f) reinterpret_cast<any_fn>(&f),
static const any_fn api[] = { CT_API_LIST(TAKE) nullptr };

int main() {
    ct_scratch s;
    ct_scratch_init(&s, nullptr);
    ct_scratch_release(&s);
    return api[0] == nullptr;
}
