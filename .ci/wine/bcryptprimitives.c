/* ProcessPrng for Wine 8 (Debian 12's), which lacks bcryptprimitives.dll: Rust's standard
   library and the getrandom crate take their random bytes from it on Windows 10 and
   later. CI builds this beside the Windows test binaries it runs under Wine; a real
   Windows has the DLL. RtlGenRandom (SystemFunction036, advapi32) gives the bytes. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
    while (length > 0) {
        ULONG chunk = length > 0x10000000 ? 0x10000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk)) {
            return FALSE;
        }
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
