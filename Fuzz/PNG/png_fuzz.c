// libFuzzer targets for the PNG tile decoder (Sources/CImageCodecs/png_fast.c), built by
// Fuzz/run.sh with clang: `png-structure` and, with -DDIFFERENTIAL, `png-differential`.
//
// Mutating a PNG's raw bytes almost always breaks a chunk's CRC or the zlib stream's Adler-32,
// and the fast decoder then declines at once. The custom mutator here works on the structure
// instead: it inflates the image data, lets libFuzzer mutate the filtered rows (or the header,
// palette and transparency chunks, or the compressed bytes themselves), deflates again and
// writes every CRC and the Adler-32 anew, so mutations reach the unfiltering, the pixel
// conversion and inflate.
//
// png-structure decodes each input with the fast decoder, straight and premultiplied, under
// ASan. png-differential also decodes it with libpng (png_codec.c's own path) and aborts when
// the fast decoder accepts a file libpng refuses, or gives other pixels; and when the row
// reader that `diff` uses disagrees with libpng's whole-image decode.

#include "png_codec.c"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

enum { MAX_SIDE = 300, MAX_RAW = 1 << 20 };

static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

/// The chunks of a PNG: the header and the ancillary chunks kept apart, the image data joined.
typedef struct {
    uint8_t ihdr[13];
    int has_ihdr;
    uint8_t *other;   // every chunk but IHDR, IDAT and IEND, whole (length, type, data, CRC)
    size_t other_length;
    uint8_t *idat;    // the IDAT chunks' data, joined
    size_t idat_length;
} png_parts;

static void parts_free(png_parts *p) {
    free(p->other);
    free(p->idat);
}

static int parse(const uint8_t *data, size_t size, png_parts *p) {
    memset(p, 0, sizeof *p);
    if (size < 8 || memcmp(data, signature, 8) != 0) return 0;
    p->other = malloc(size);
    p->idat = malloc(size);
    if (!p->other || !p->idat) return 0;
    size_t pos = 8;
    while (pos + 12 <= size) {
        uint32_t length = mc_be32(data + pos);
        if (length > size - pos - 12) break;
        const uint8_t *type = data + pos + 4, *body = data + pos + 8;
        if (memcmp(type, "IHDR", 4) == 0 && length == 13) {
            memcpy(p->ihdr, body, 13);
            p->has_ihdr = 1;
        } else if (memcmp(type, "IDAT", 4) == 0) {
            memcpy(p->idat + p->idat_length, body, length);
            p->idat_length += length;
        } else if (memcmp(type, "IEND", 4) == 0) {
            break;
        } else {
            memcpy(p->other + p->other_length, data + pos, 12 + (size_t)length);
            p->other_length += 12 + (size_t)length;
        }
        pos += 12 + (size_t)length;
    }
    return p->has_ihdr;
}

static void put_be32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/// Appends a chunk with its CRC; 0 when it does not fit in `max`.
static int append_chunk(uint8_t *out, size_t *length, size_t max, const char *type, const uint8_t *body, size_t size) {
    if (*length + 12 + size > max) return 0;
    uint8_t *p = out + *length;
    put_be32(p, (uint32_t)size);
    memcpy(p + 4, type, 4);
    if (size) memcpy(p + 8, body, size);
    put_be32(p + 8 + size, (uint32_t)crc32(0, p + 4, (uInt)size + 4));
    *length += 12 + size;
    return 1;
}

/// Mutates the body of each of the ancillary chunks in place (same length) and writes its CRC
/// anew.
static void mutate_bodies(uint8_t *chunks, size_t length) {
    size_t pos = 0;
    while (pos + 12 <= length) {
        uint32_t size = mc_be32(chunks + pos);
        if (size > length - pos - 12) break;
        if (size > 0) LLVMFuzzerMutate(chunks + pos + 8, size, size);
        put_be32(chunks + pos + 8 + size, (uint32_t)crc32(0, chunks + pos + 4, size + 4));
        pos += 12 + size;
    }
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed) {
    png_parts p;
    if (!parse(data, size, &p)) {
        parts_free(&p);
        return LLVMFuzzerMutate(data, size, max_size);
    }
    uint8_t *raw = malloc(MAX_RAW);
    uLongf raw_length = MAX_RAW;
    if (!raw || uncompress(raw, &raw_length, p.idat, p.idat_length) != Z_OK) raw_length = 0;
    uint8_t *compressed = NULL;
    size_t compressed_length = p.idat_length;
    switch (seed % 8) {
    case 0:  // the header: size, depth, colour type, interlace
        LLVMFuzzerMutate(p.ihdr, 13, 13);
        if (mc_be32(p.ihdr) > MAX_SIDE) put_be32(p.ihdr, 1 + mc_be32(p.ihdr) % MAX_SIDE);
        if (mc_be32(p.ihdr + 4) > MAX_SIDE) put_be32(p.ihdr + 4, 1 + mc_be32(p.ihdr + 4) % MAX_SIDE);
        break;
    case 1:  // palette, transparency and the other chunks' bodies, each in place
        mutate_bodies(p.other, p.other_length);
        break;
    case 2:  // the compressed bytes themselves (inflate), CRCs still right
        compressed = malloc(p.idat_length + 64);
        if (compressed) {
            memcpy(compressed, p.idat, p.idat_length);
            compressed_length = LLVMFuzzerMutate(compressed, p.idat_length, p.idat_length + 64);
        }
        break;
    default:  // the filtered rows, deflated again with a right Adler-32
        if (raw_length) raw_length = LLVMFuzzerMutate(raw, raw_length, raw_length + raw_length / 8 + 16 < MAX_RAW ? raw_length + raw_length / 8 + 16 : MAX_RAW);
        break;
    }
    if (!compressed && raw_length) {
        uLongf bound = compressBound(raw_length);
        compressed = malloc(bound);
        if (compressed && compress2(compressed, &bound, raw, raw_length, (int)(seed / 8 % 10)) == Z_OK) {
            compressed_length = bound;
        } else {
            free(compressed);
            compressed = NULL;
        }
    }
    size_t length = 8;
    uint8_t *out = malloc(max_size);
    int fits = out != NULL;
    if (fits) {
        memcpy(out, signature, 8);
        fits = append_chunk(out, &length, max_size, "IHDR", p.ihdr, 13) && length + p.other_length <= max_size;
    }
    if (fits) {
        memcpy(out + length, p.other, p.other_length);
        length += p.other_length;
        const uint8_t *idat = compressed ? compressed : p.idat;
        size_t idat_length = compressed ? compressed_length : p.idat_length;
        // Split into two IDAT chunks now and then: the decoder must join them.
        size_t first = seed % 3 == 0 ? idat_length / 2 : idat_length;
        fits = append_chunk(out, &length, max_size, "IDAT", idat, first) &&
               (first == idat_length || append_chunk(out, &length, max_size, "IDAT", idat + first, idat_length - first)) &&
               append_chunk(out, &length, max_size, "IEND", NULL, 0);
    }
    size_t result = size;
    if (fits) {
        memcpy(data, out, length);
        result = length;
    }
    free(out);
    free(compressed);
    free(raw);
    parts_free(&p);
    return fits ? result : LLVMFuzzerMutate(data, size, max_size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 24 || memcmp(data, signature, 8) != 0 || memcmp(data + 12, "IHDR", 4) != 0) return 0;
    uint32_t width = mc_be32(data + 16), height = mc_be32(data + 20);
    if (width == 0 || height == 0 || width > MAX_SIDE || height > MAX_SIDE) return 0;
    size_t stride = (size_t)width * 4, bytes = stride * height;
    uint8_t *fast = malloc(bytes), *premultiplied = malloc(bytes);
    if (!fast || !premultiplied) abort();
    int fast_status = mc_png_fast_decode(data, size, fast, (int)width, (int)height, stride, 0);
    int premultiplied_status = mc_png_fast_decode(data, size, premultiplied, (int)width, (int)height, stride, 1);
    if (fast_status != premultiplied_status) abort();
#ifdef DIFFERENTIAL
    if (fast_status == 0) {
        uint8_t *reference = malloc(bytes);
        char message[128];
        if (!reference) abort();
        // The fast decoder may accept only what libpng accepts, with the same pixels.
        if (mc_png_decode_libpng(data, size, reference, (int)width, (int)height, stride, message, sizeof message) != 0) abort();
        if (memcmp(fast, reference, bytes) != 0) abort();
        for (uint32_t y = 0; y < height; y++) mc_premultiply_row(reference + y * stride, width);
        if (memcmp(premultiplied, reference, bytes) != 0) abort();
        free(reference);
    }
    // The row reader (`diff`'s) accepts what the whole-image libpng decode accepts, with the
    // same pixels, read in bands of 7 rows; an interlaced file it leaves to the whole decode.
    {
        uint8_t *whole = malloc(bytes), *banded = malloc(bytes);
        char message[128];
        if (!whole || !banded) abort();
        int whole_status = mc_png_decode_libpng(data, size, whole, (int)width, (int)height, stride, message, sizeof message);
        int interlaced = 0;
        mc_png_rows *rows = mc_png_rows_open(data, size, (int)width, (int)height, &interlaced, message, sizeof message);
        int rows_status = rows ? 0 : 1;
        for (uint32_t y = 0; rows && y < height; y += 7) {
            int count = height - y < 7 ? (int)(height - y) : 7;
            if (mc_png_rows_read(rows, banded + y * stride, count, message, sizeof message) != 0) {
                rows_status = 1;
                break;
            }
        }
        mc_png_rows_close(rows);
        if (!interlaced && (whole_status != rows_status || (whole_status == 0 && memcmp(whole, banded, bytes) != 0))) abort();
        free(whole);
        free(banded);
    }
#endif
    free(fast);
    free(premultiplied);
    return 0;
}
