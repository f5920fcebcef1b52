import CratesCore

/// Lays labels and contents lists out on pages: pure arithmetic over the layout's geometry,
/// libzint's symbols and a text measurer, with no drawing (the PDF renderer draws the plan
/// as it is).
///
/// Inside a label, from the top: the name (bold, shrunk from 12 pt down to 6 pt until it
/// fits), the path (7 pt, shortened from its outermost place), then the symbol: bars scaled
/// by the largest whole number of printer dots per module that fits the label's width with
/// the quiet zones (`ModuleScale`), at most GS1's 200% module; the bars as tall as GS1's
/// nominal height or as the label allows, the digits beneath. The block is centred.
public struct LabelPlanner {
    public let layout: LabelSheetLayout
    public let options: LabelOptions
    let measurer: any TextMeasuring

    public init(layout: LabelSheetLayout, options: LabelOptions = LabelOptions(), measurer: some TextMeasuring) {
        self.layout = layout
        self.options = options
        self.measurer = measurer
    }

    /// The pages for `labels` (in order: on sheets from position `options.skip`, row by row,
    /// a new sheet when one is full; on rolls one label per page), then for each of
    /// `contents` its contents list, starting on a page of its own.
    public func plan(labels: [Label], contents: [LabelContents] = []) throws(LabelError) -> LabelDocumentPlan {
        try options.validate(for: layout)
        guard !labels.isEmpty || !contents.isEmpty else { throw .nothingToPrint }
        var pages: [LabelDocumentPlan.Page] = []
        switch layout.form {
        case let .sheet(geometry):
            var position = options.skip
            var page: LabelDocumentPlan.Page?
            for label in labels {
                var current = page ?? LabelDocumentPlan.Page(width: geometry.pageWidth, height: geometry.pageHeight)
                let cell = geometry.cell(at: position)
                current.labels.append(try place(label, in: cell, position: position))
                position += 1
                if position == geometry.positions {
                    pages.append(current)
                    page = nil
                    position = 0
                } else {
                    page = current
                }
            }
            if let page { pages.append(page) }
        case let .dieCut(width, height):
            for label in labels {
                let cell = LabelRect(x: 0, y: 0, width: width, height: height)
                pages.append(LabelDocumentPlan.Page(width: width, height: height,
                                                    labels: [try place(label, in: cell, position: nil)]))
            }
        case let .continuousRoll(width):
            for label in labels {
                let content = try self.content(of: label, width: width - 2 * LabelStyle.horizontalInset, height: nil)
                let length = rollLength(content.height + 2 * LabelStyle.verticalInset)
                let cell = LabelRect(x: 0, y: 0, width: width, height: length)
                pages.append(LabelDocumentPlan.Page(width: width, height: length,
                                                    labels: [place(content, in: cell, position: nil)]))
            }
        }
        for list in contents {
            pages += try contentsPages(list)
        }
        return LabelDocumentPlan(layout: layout.name, pages: pages)
    }

    /// `label` laid out in `cell` (a sheet position, a die-cut label, a contents page's head).
    func place(_ label: Label, in cell: LabelRect, position: Int?) throws(LabelError) -> PlacedLabel {
        let inner = cell.insetBy(dx: LabelStyle.horizontalInset, dy: LabelStyle.verticalInset)
        let content = try self.content(of: label, width: inner.width, height: inner.height)
        return place(content, in: cell, position: position)
    }

    /// A roll's cut: the length rounded up to whole printer dots (the printer's steps).
    func rollLength(_ length: Double) -> Double {
        let dot = Points.dot(dpi: options.dpi)
        return (length / dot - 1e-6).rounded(.up) * dot
    }

    // MARK: - One label's content

    /// A label's text and symbol, fitted to a width and (except on a continuous roll) a height.
    struct Content {
        var code: GTIN
        var title: PlacedText?
        /// The whole title, when it was cut to fit.
        var cutFrom: String?
        var path: PlacedText?
        var symbol: BarcodeSymbol
        var scale: ModuleScale

        /// The title and path lines.
        var textHeight: Double {
            [title, path].compactMap { $0 }.reduce(0) { $0 + LabelFont.lineHeight * $1.size }
        }

        var symbolHeight: Double { symbol.height * scale.module }

        var height: Double { textHeight + (textHeight > 0 ? LabelStyle.textGap : 0) + symbolHeight }
    }

    /// Fits `label` into `width` × `height` points (`height` nil: as tall as it needs).
    func content(of label: Label, width: Double, height: Double?) throws(LabelError) -> Content {
        let (title, cut) = fittedTitle(label, width: width)
        let places = label.path.map(TextFitting.cleaned).filter { !$0.isEmpty }
        var path: PlacedText?
        if !places.isEmpty {
            let text = TextFitting.shortenedPath(
                places, font: .regular, size: LabelStyle.pathSize, fitting: width, measurer: measurer)
            if !text.isEmpty { path = line(text, font: .regular, size: LabelStyle.pathSize) }
        }
        var content = Content(
            code: label.code, title: title, cutFrom: cut ? TextFitting.cleaned(label.title) : nil, path: path,
            symbol: try BarcodeSymbol.encode(label.code.canonical, symbology: label.symbology),
            scale: ModuleScale(dots: 1, dpi: options.dpi))
        let textBlock = content.textHeight + (content.textHeight > 0 ? LabelStyle.textGap : 0)
        let symbology = label.symbology
        let probe = content.symbol

        // The module: the largest whole number of dots that fits the width with the quiet
        // zones (and, for a square QR, the height left).
        var fitting = width
        if symbology == .qr, let height { fitting = min(width, height - textBlock) }
        guard let scale = ModuleScale.largest(
            modules: probe.width, fitting: fitting, dpi: options.dpi, range: symbology.moduleRange)
        else {
            let minimum = symbology.moduleRange.lowerBound
            let dots = Int((Points.millimetres(minimum) / Points.dot(dpi: options.dpi) - 1e-6).rounded(.up))
            let smallest = ModuleScale(dots: max(1, dots), dpi: options.dpi)
            throw .labelTooSmall(layout: layout.name, reason: "\(Self.symbologyName(symbology)) with its quiet zones is "
                + "\(LabelMeasure.number(probe.width)) modules wide: "
                + "\(LabelMeasure.millimetres(probe.width * smallest.module, decimals: 1)) mm at the smallest module "
                + "of whole dots, \(smallest) (GS1's minimum is \(LabelMeasure.number(minimum, decimals: 3)) mm), "
                + "and the label leaves \(LabelMeasure.millimetres(fitting, decimals: 1)) mm")
        }
        content.scale = scale
        try checkBleed(scale)

        if symbology == .ean13 {
            // As tall as GS1's nominal height, or as the label allows (truncated bars).
            var bars = symbology.nominalBarHeight
            if let height {
                bars = min(bars, (height - textBlock) / scale.module - probe.textDepth)
            }
            let minimum = Points.millimetres(LabelStyle.minimumBarMillimetres)
            guard bars * scale.module >= minimum - 1e-9 else {
                throw .labelTooSmall(layout: layout.name, reason: "the name and path leave "
                    + "\(LabelMeasure.millimetres(max(0, bars * scale.module), decimals: 1)) mm for the bars, less than the "
                    + "\(LabelMeasure.number(LabelStyle.minimumBarMillimetres)) mm a scanner needs")
            }
            content.symbol = try BarcodeSymbol.encode(label.code.canonical, symbology: symbology, barHeight: bars)
        }
        return content
    }

    /// The title at the largest size from 12 pt down to 6 pt that fits; below that, cut
    /// with "…" at 6 pt (`Label`'s one rule), and `cut` says so.
    private func fittedTitle(_ label: Label, width: Double) -> (text: PlacedText?, cut: Bool) {
        let title = TextFitting.cleaned(label.title)
        guard !title.isEmpty else { return (nil, false) }
        let sizes = LabelStyle.minimumTitleSize...LabelStyle.maximumTitleSize
        if let size = TextFitting.largestSize(of: title, font: .bold, fitting: width, sizes: sizes, measurer: measurer) {
            return (line(title, font: .bold, size: size), false)
        }
        let size = LabelStyle.minimumTitleSize
        let text = TextFitting.shortened(title, font: .bold, size: size, fitting: width, measurer: measurer)
        return (text.isEmpty ? nil : line(text, font: .bold, size: size), true)
    }

    /// Thinning each bar by `bleed` must leave the narrowest (one module) more than half.
    private func checkBleed(_ scale: ModuleScale) throws(LabelError) {
        let bleed = Points.millimetres(options.bleed)
        guard bleed < scale.module / 2 else {
            throw .badOption("bleed \(LabelMeasure.number(options.bleed, decimals: 3)) mm is half a module or more: "
                + "the module here is \(scale), so the bleed must be less than "
                + "\(LabelMeasure.number(scale.millimetres / 2, decimals: 3)) mm (thermal bleed is usually about a dot)")
        }
    }

    /// A line of text measured, not yet placed.
    func line(_ text: String, font: LabelFont, size: Double) -> PlacedText {
        PlacedText(text: text, font: font, size: size, x: 0, baseline: 0,
                   width: measurer.width(of: text, font: font, size: size))
    }

    static func symbologyName(_ symbology: Label.Symbology) -> String {
        switch symbology {
        case .ean13: "an EAN-13"
        case .qr: "a QR code"
        }
    }

    // MARK: - Placing

    /// `content` centred in `cell`: text lines centred above the symbol, the symbol's left
    /// edge and top on printer dots so that every bar edge falls on a dot boundary.
    func place(_ content: Content, in cell: LabelRect, position: Int?) -> PlacedLabel {
        let inner = cell.insetBy(dx: LabelStyle.horizontalInset, dy: LabelStyle.verticalInset)
        var y = inner.minY + max(0, (inner.height - content.height) / 2)
        var texts: [PlacedText] = []
        for var text in [content.title, content.path].compactMap({ $0 }) {
            text.x = inner.midX - text.width / 2
            text.baseline = y + LabelFont.ascent * text.size
            y += LabelFont.lineHeight * text.size
            texts.append(text)
        }
        if !texts.isEmpty { y += LabelStyle.textGap }
        let scale = content.scale
        let module = scale.module
        let symbol = content.symbol
        let frame = LabelRect(
            // Up rather than down the page would run past a roll's cut.
            x: scale.snapped(inner.midX - symbol.width * module / 2), y: scale.snapped(y, .down),
            width: symbol.width * module, height: symbol.height * module)
        let bleed = Points.millimetres(options.bleed)
        let bars = symbol.bars.map { bar in
            // Thinner by the bleed, about the bar's centre.
            LabelRect(x: frame.x + bar.x * module + bleed / 2, y: frame.y + bar.y * module,
                      width: bar.width * module - bleed, height: bar.height * module)
        }
        let digits = symbol.texts.map { text in symbolText(text, in: frame, module: module) }
        return PlacedLabel(
            code: content.code, position: position, cell: cell,
            symbol: PlacedSymbol(symbology: symbol.symbology, frame: frame, scale: scale, barHeight: symbol.barHeight,
                                 bars: bars, texts: digits),
            texts: texts, cutFrom: content.cutFrom)
    }

    /// One of libzint's strings at its place, shrunk if the font is wider than libzint allows.
    private func symbolText(_ text: BarcodeSymbol.Text, in frame: LabelRect, module: Double) -> PlacedText {
        var size = text.size * module
        var width = measurer.width(of: text.text, font: .regular, size: size)
        let allowed = text.width * module
        if allowed > 0, width > allowed {
            size *= allowed / width
            width = allowed
        }
        let anchor = frame.x + text.x * module
        let x = switch text.alignment {
        case .left: anchor
        case .centre: anchor - width / 2
        case .right: anchor - width
        }
        return PlacedText(text: text.text, font: .regular, size: size, x: x, baseline: frame.y + text.baseline * module,
                          width: width)
    }
}
