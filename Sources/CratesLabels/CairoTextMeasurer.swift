import CCairo

/// Measures text with cairo's fonts, exactly as `CairoPDFRenderer` draws it: the same face,
/// the same size, unhinted metrics (a PDF is scaled freely, so advances must not be rounded
/// to pixels). Measures on a recording surface, which draws nothing.
///
/// Not Sendable: a cairo context belongs to one thread. Make one per document.
public final class CairoTextMeasurer: TextMeasuring {
    private let surface: OpaquePointer?
    private let context: OpaquePointer?

    public init() {
        surface = cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, nil)
        context = cairo_create(surface)
        CairoFonts.prepare(context)
    }

    deinit {
        cairo_destroy(context)
        cairo_surface_destroy(surface)
    }

    public func width(of text: String, font: LabelFont, size: Double) -> Double {
        CairoFonts.select(font, size: size, in: context)
        var extents = cairo_text_extents_t()
        cairo_text_extents(context, text, &extents)
        return extents.x_advance
    }
}

/// The fonts labels are set in, chosen the same way for measuring and drawing.
enum CairoFonts {
    /// DejaVu Sans: on every Debian system with fontconfig (fonts-dejavu-core), clear at
    /// small sizes, and with "…" and "›".
    static let family = "DejaVu Sans"

    /// Unhinted metrics and outlines for a context.
    static func prepare(_ context: OpaquePointer?) {
        guard let options = cairo_font_options_create() else { return }
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_set_font_options(context, options)
        cairo_font_options_destroy(options)
    }

    static func select(_ font: LabelFont, size: Double, in context: OpaquePointer?) {
        let weight = font == .bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL
        cairo_select_font_face(context, family, CAIRO_FONT_SLANT_NORMAL, weight)
        cairo_set_font_size(context, size)
    }
}
