/* Names and summaries of the error codes. A file of its own so that an image which never asks
 * for them (most firmware) links none of their strings: the table is ~12 KiB of flash. */
#include "kernel/api/error_codes.h"

static const char *const code_names[] = {
#define EG_ERROR_CODE_NAME(code, summary) #code,
    EG_ERROR_CODES(EG_ERROR_CODE_NAME)
#undef EG_ERROR_CODE_NAME
};
static const char *const code_summaries[] = {
#define EG_ERROR_CODE_SUMMARY(code, summary) summary,
    EG_ERROR_CODES(EG_ERROR_CODE_SUMMARY)
#undef EG_ERROR_CODE_SUMMARY
};

const char *eg_error_code_name(eg_error_code_t code)
{
    return (unsigned)code < EG_E_COUNT ? code_names[code] : "?";
}

const char *eg_error_code_summary(eg_error_code_t code)
{
    return (unsigned)code < EG_E_COUNT ? code_summaries[code] : "?";
}
