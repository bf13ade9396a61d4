// Intel ISA-L (Debian libisal-dev): igzip's deflate and the gzip CRC-32 used by CPNGWriter.
#include <isa-l/crc.h>
#include <isa-l/igzip_lib.h>
