#ifndef CRATES_CPNG_SHIM_H
#define CRATES_CPNG_SHIM_H
// libpng (Debian libpng-dev): PNG decoding for covers.
//
// libpng's default error handler prints before it longjmps: the decoder below installs silent
// handlers, and keeps setjmp and longjmp inside this C code (a longjmp must never cross Swift
// frames), so that a corrupt or truncated file only makes the function return NULL.
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>

typedef struct crates_png_source {
    const unsigned char *data;
    size_t size;
    size_t offset;
} crates_png_source;

static void crates_png_read(png_structp png, png_bytep out, size_t length) {
    crates_png_source *source = (crates_png_source *)png_get_io_ptr(png);
    if (length > source->size - source->offset) png_error(png, "truncated");
    memcpy(out, source->data + source->offset, length);
    source->offset += length;
}

static void crates_png_error(png_structp png, png_const_charp message) {
    (void)message;
    png_longjmp(png, 1);
}

static void crates_png_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

/// Decodes the PNG in `data` to 8-bit RGBA rows, width × 4 bytes each, in memory from malloc
/// that the caller frees; NULL when the bytes are not a whole PNG (a damaged chunk, a file cut
/// short), or when it declares a side over `largest_side` or more than `largest_pixels` pixels
/// (checked from the header, before anything is allocated for the pixels).
///
/// Every PNG there is becomes RGBA: palette, greyscale (1 to 16 bits), 16-bit channels
/// (scaled to 8), a transparent colour (tRNS) and interlaced (Adam7) files. Transparency is
/// flattened onto black, so every pixel returned is opaque: a cover's cells have two colours
/// each, and none of them is "the terminal's own".
static inline unsigned char *crates_png_decode_rgba(const unsigned char *data, size_t size, unsigned int largest_side,
                                                    unsigned long largest_pixels, int *width_out, int *height_out) {
    *width_out = 0;
    *height_out = 0;
    if (data == NULL || size < 8 || png_sig_cmp(data, 0, 8) != 0) return NULL;
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, crates_png_error, crates_png_warning);
    if (png == NULL) return NULL;
    png_infop info = png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_read_struct(&png, NULL, NULL);
        return NULL;
    }
    unsigned char *volatile pixels = NULL;
    png_bytep *volatile rows = NULL;
    crates_png_source source = {data, size, 0};
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        free(pixels);
        free(rows);
        return NULL;
    }
    // libpng refuses a larger header itself (png_read_info's error), and bounds what an
    // ancillary chunk may make it allocate.
    png_set_user_limits(png, largest_side, largest_side);
    png_set_chunk_malloc_max(png, 8 * 1024 * 1024);
    png_set_read_fn(png, &source, crates_png_read);
    png_read_info(png, info);

    png_uint_32 width = 0, height = 0;
    int depth = 0, type = 0;
    png_get_IHDR(png, info, &width, &height, &depth, &type, NULL, NULL, NULL);
    if (width == 0 || height == 0 || (unsigned long)width * (unsigned long)height > largest_pixels)
        png_error(png, "size");

    png_set_expand(png);
    png_set_scale_16(png);
    if (type == PNG_COLOR_TYPE_GRAY || type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    size_t stride = (size_t)width * 4;
    if (png_get_rowbytes(png, info) != stride) png_error(png, "layout");

    pixels = malloc(stride * height);
    rows = malloc(sizeof(png_bytep) * height);
    if (pixels == NULL || rows == NULL) png_error(png, "memory");
    for (png_uint_32 y = 0; y < height; y++) rows[y] = pixels + stride * y;
    png_read_image(png, rows);
    png_destroy_read_struct(&png, &info, NULL);
    free(rows);

    unsigned char *out = pixels;
    size_t count = stride * height;
    for (size_t i = 0; i < count; i += 4) {
        unsigned int alpha = out[i + 3];
        if (alpha == 255) continue;
        out[i] = (unsigned char)(out[i] * alpha / 255);
        out[i + 1] = (unsigned char)(out[i + 1] * alpha / 255);
        out[i + 2] = (unsigned char)(out[i + 2] * alpha / 255);
        out[i + 3] = 255;
    }
    *width_out = (int)width;
    *height_out = (int)height;
    return out;
}

#endif
