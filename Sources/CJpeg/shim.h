#ifndef CRATES_CJPEG_SHIM_H
#define CRATES_CJPEG_SHIM_H
// libjpeg-turbo (Debian libjpeg-dev): JPEG decoding for covers.
//
// libjpeg reports a fatal error by calling error_exit, whose default prints and calls exit():
// a corrupt file would end crates. The decoder below installs an error manager that longjmps
// back into the decoding function instead, so that setjmp and longjmp stay inside this C code
// (a longjmp must never cross Swift frames), and that prints nothing.
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

typedef struct crates_jpeg_error {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
} crates_jpeg_error;

static void crates_jpeg_error_exit(j_common_ptr info) {
    crates_jpeg_error *error = (crates_jpeg_error *)info->err;
    longjmp(error->jump, 1);
}

// Warnings are not printed. A file that ends before its image does (libjpeg's memory source
// warns, then pads the rest in grey) is refused like a corrupt one: half a cover in grey is
// not the cover. Other warnings (extraneous bytes between markers) leave a whole image.
static void crates_jpeg_emit_message(j_common_ptr info, int level) {
    if (level < 0 && info->err->msg_code == JWRN_JPEG_EOF) {
        crates_jpeg_error *error = (crates_jpeg_error *)info->err;
        longjmp(error->jump, 1);
    }
}

static void crates_jpeg_output_message(j_common_ptr info) { (void)info; }

/// Decodes the JPEG in `data` to 8-bit RGBA rows (alpha 255), width × 4 bytes each, in memory
/// from malloc that the caller frees; NULL when the bytes are not a whole JPEG, or when it
/// declares a side over `largest_side` or more than `largest_pixels` pixels (checked from the
/// header, before anything is allocated for the pixels).
///
/// `wanted_width` × `wanted_height` is the size the caller needs at least: the decoder uses
/// libjpeg's DCT scaling (1/2, 1/4, 1/8) when the scaled image still covers it, so a large
/// cover drawn small costs a fraction of its full decoding. Progressive, greyscale and CMYK
/// (Adobe's inverted CMYK too) files are read; CMYK is converted without a colour profile.
static inline unsigned char *crates_jpeg_decode_rgba(const unsigned char *data, size_t size,
                                                     unsigned int largest_side, unsigned long largest_pixels,
                                                     unsigned int wanted_width, unsigned int wanted_height,
                                                     int *width_out, int *height_out) {
    struct jpeg_decompress_struct info;
    crates_jpeg_error error;
    unsigned char *volatile pixels = NULL;
    memset(&info, 0, sizeof info);
    *width_out = 0;
    *height_out = 0;
    if (data == NULL || size == 0) return NULL;

    info.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = crates_jpeg_error_exit;
    error.manager.emit_message = crates_jpeg_emit_message;
    error.manager.output_message = crates_jpeg_output_message;
    if (setjmp(error.jump)) {
        jpeg_destroy_decompress(&info);
        free(pixels);
        return NULL;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, data, (unsigned long)size);
    if (jpeg_read_header(&info, TRUE) != JPEG_HEADER_OK) longjmp(error.jump, 1);
    if (info.image_width == 0 || info.image_height == 0 || info.image_width > largest_side ||
        info.image_height > largest_side ||
        (unsigned long)info.image_width * (unsigned long)info.image_height > largest_pixels)
        longjmp(error.jump, 1);

    int cmyk = info.jpeg_color_space == JCS_CMYK || info.jpeg_color_space == JCS_YCCK;
    info.out_color_space = cmyk ? JCS_CMYK : JCS_EXT_RGBA;
    for (unsigned int denominator = 8; denominator > 1; denominator /= 2) {
        if (info.image_width / denominator >= wanted_width && info.image_height / denominator >= wanted_height) {
            info.scale_num = 1;
            info.scale_denom = denominator;
            break;
        }
    }
    if (!jpeg_start_decompress(&info)) longjmp(error.jump, 1);
    if (info.output_components != 4 || info.output_width == 0 || info.output_height == 0) longjmp(error.jump, 1);

    size_t stride = (size_t)info.output_width * 4;
    pixels = malloc(stride * info.output_height);
    if (pixels == NULL) longjmp(error.jump, 1);
    while (info.output_scanline < info.output_height) {
        JSAMPROW row = pixels + stride * info.output_scanline;
        if (jpeg_read_scanlines(&info, &row, 1) != 1) longjmp(error.jump, 1);
        if (cmyk) {
            // Adobe's files store CMYK inverted (255 is no ink); others store ink amounts.
            for (size_t x = 0; x < stride; x += 4) {
                unsigned int c = row[x], m = row[x + 1], y = row[x + 2], k = row[x + 3];
                if (!info.saw_Adobe_marker) {
                    c = 255 - c;
                    m = 255 - m;
                    y = 255 - y;
                    k = 255 - k;
                }
                row[x] = (JSAMPLE)(c * k / 255);
                row[x + 1] = (JSAMPLE)(m * k / 255);
                row[x + 2] = (JSAMPLE)(y * k / 255);
                row[x + 3] = 255;
            }
        }
    }
    *width_out = (int)info.output_width;
    *height_out = (int)info.output_height;
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    return pixels;
}

#endif
