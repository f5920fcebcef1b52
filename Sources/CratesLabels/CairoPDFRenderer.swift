import CCairo

/// Draws a `LabelDocumentPlan` as a PDF with cairo: each page at its exact size in points,
/// bars as filled vector rectangles, text as embedded font glyphs. The PDF is collected in
/// memory; writing it to a file is the caller's (crates writes it with `ExportFile`, whole
/// or not at all).
enum CairoPDFRenderer {
    /// The PDF's bytes.
    static func render(_ plan: LabelDocumentPlan, title: String) throws(LabelError) -> [UInt8] {
        guard let first = plan.pages.first else { throw .nothingToPrint }
        let sink = ByteSink()
        let result: LabelError? = withExtendedLifetime(sink) {
            let surface = cairo_pdf_surface_create_for_stream(
                { closure, data, length in
                    guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
                    let sink = Unmanaged<ByteSink>.fromOpaque(closure).takeUnretainedValue()
                    sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
                    return CAIRO_STATUS_SUCCESS
                },
                Unmanaged.passUnretained(sink).toOpaque(), first.width, first.height)
            defer { cairo_surface_destroy(surface) }
            cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, title)
            cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "crates")
            let context = cairo_create(surface)
            defer { cairo_destroy(context) }
            CairoFonts.prepare(context)
            for (index, page) in plan.pages.enumerated() {
                // The size of each page is set before anything is drawn on it.
                if index > 0 { cairo_pdf_surface_set_size(surface, page.width, page.height) }
                draw(page, in: context)
                cairo_show_page(context)
            }
            let drawn = cairo_status(context)
            cairo_surface_finish(surface)
            let finished = cairo_surface_status(surface)
            for status in [drawn, finished] where status != CAIRO_STATUS_SUCCESS {
                return .drawing(String(cString: cairo_status_to_string(status)))
            }
            return nil
        }
        if let result { throw result }
        return sink.bytes
    }

    private static func draw(_ page: LabelDocumentPlan.Page, in context: OpaquePointer?) {
        cairo_set_source_rgb(context, 0, 0, 0)
        for label in page.labels {
            fill(label.symbol.bars, in: context)
            for text in label.texts + label.symbol.texts { draw(text, in: context) }
        }
        fill(page.rules, in: context)
        for text in page.texts { draw(text, in: context) }
    }

    private static func fill(_ rectangles: [LabelRect], in context: OpaquePointer?) {
        guard !rectangles.isEmpty else { return }
        for rectangle in rectangles {
            cairo_rectangle(context, rectangle.x, rectangle.y, rectangle.width, rectangle.height)
        }
        cairo_fill(context)
    }

    private static func draw(_ text: PlacedText, in context: OpaquePointer?) {
        guard !text.text.isEmpty else { return }
        CairoFonts.select(text.font, size: text.size, in: context)
        cairo_move_to(context, text.x, text.baseline)
        cairo_show_text(context, text.text)
    }
}

/// Where cairo's stream callback puts the PDF. Only touched on the rendering thread, inside
/// `render`, so it needs no lock.
private final class ByteSink {
    var bytes: [UInt8] = []
}
