/// Contents lists: the book's moving-box manifest. A crate's list starts on a page of its
/// own, headed by the crate's label (name, path and barcode, so that scanning the list finds
/// the crate), then its records, one per row, flowing onto more pages when long.
extension LabelPlanner {
    /// Sizes and spacing of a contents list, in points.
    enum ContentsStyle {
        /// Around the list on a sheet's page (a continuous roll keeps the label insets).
        static let sheetMargin = Points.millimetres(15)
        /// The crate's label at the head of a sheet's page: at most this size.
        static let headWidth = Points.millimetres(100)
        static let headHeight = Points.millimetres(40)
        static let headingSize = 10.0
        static let columnHeadSize = 8.0
        static let entrySize = 9.0
        static let detailSize = 7.5
        static let footerSize = 8.0
        static let columnGap = Points.millimetres(4)
        /// The widest a format or catalogue number column grows.
        static let widestColumn = Points.millimetres(40)
        /// Below this width for "Artist — Title", entries take two lines instead of columns.
        static let narrowestMainColumn = Points.millimetres(50)
        /// A continuous roll's contents page grows to at most this length, then continues.
        static let longestRollPage = Points.millimetres(600)
        static let ruleThickness = 0.5
    }

    /// One record's texts.
    private struct Row {
        var main: String
        var format: String
        var year: String
        var catalogueNumber: String
        /// The place inside the listed one that holds the record; empty: the listed one.
        var place: String

        var details: String {
            [format, year, catalogueNumber, place.isEmpty ? "" : "in \(place)"].filter { !$0.isEmpty }.joined(separator: " · ")
        }
    }

    /// Where each column starts and how wide it is (wide pages only).
    private struct Columns {
        var main: (x: Double, width: Double)
        var format: (x: Double, width: Double)
        var year: (x: Double, width: Double)
        var catalogueNumber: (x: Double, width: Double)
        /// Only when a record of the list is in a place inside the listed one.
        var place: (x: Double, width: Double)?
    }

    func contentsPages(_ list: LabelContents) throws(LabelError) -> [LabelDocumentPlan.Page] {
        typealias Style = ContentsStyle
        let pageWidth: Double
        let pageHeight: Double?
        let margin: Double
        switch layout.form {
        case let .sheet(geometry):
            (pageWidth, pageHeight, margin) = (geometry.pageWidth, geometry.pageHeight, Style.sheetMargin)
        case let .continuousRoll(width):
            (pageWidth, pageHeight, margin) = (width, nil, LabelStyle.horizontalInset)
        case .dieCut:
            throw .contentsNeedPage(layout: layout.name)
        }
        let contentWidth = pageWidth - 2 * margin

        // The head: the crate's own label.
        let head: PlacedLabel
        if pageHeight != nil {
            let cell = LabelRect(x: margin, y: margin, width: min(contentWidth, Style.headWidth), height: Style.headHeight)
            head = try place(list.label, in: cell, position: nil)
        } else {
            let content = try self.content(of: list.label, width: pageWidth - 2 * LabelStyle.horizontalInset, height: nil)
            head = place(content, in: LabelRect(x: 0, y: 0, width: pageWidth,
                                                height: content.height + 2 * LabelStyle.verticalInset), position: nil)
        }
        let name = TextFitting.cleaned(list.label.title)
        let rows = list.entries.map(row)
        let places = list.entries.count { $0.isPlace }
        let records = list.entries.count - places
        let summary = ([records == 1 ? "1 record" : "\(records) records"]
            + (places == 0 ? [] : [places == 1 ? "1 place inside" : "\(places) places inside"])).joined(separator: ", ")
        let columns = self.columns(for: rows, x: margin, width: contentWidth)
        let rowHeight = columns == nil
            ? LabelFont.lineHeight * (Style.entrySize + Style.detailSize) + 2
            : LabelFont.lineHeight * Style.entrySize + 1.5

        var pages: [LabelDocumentPlan.Page] = []
        var remaining = rows[...]
        repeat {
            var page = LabelDocumentPlan.Page(width: pageWidth, height: pageHeight ?? 0)
            var y: Double
            let heading: String
            if pages.isEmpty {
                page.labels = [head]
                y = head.cell.maxY + Points.millimetres(2)
                heading = summary
            } else {
                y = margin
                heading = "\(name) (continued)"
            }
            page.texts.append(text(heading, font: .bold, size: Style.headingSize, x: margin, top: y, width: contentWidth))
            y += LabelFont.lineHeight * Style.headingSize
            page.rules.append(LabelRect(x: margin, y: y, width: contentWidth, height: Style.ruleThickness))
            y += Style.ruleThickness + 3
            if let columns, !rows.isEmpty {
                let size = Style.columnHeadSize
                let heads = [("Artist — Title", columns.main), ("Format", columns.format), ("Year", columns.year),
                             ("Cat. no.", columns.catalogueNumber)] + (columns.place.map { [("Place", $0)] } ?? [])
                for (title, column) in heads {
                    page.texts.append(text(title, font: .bold, size: size, x: column.x, top: y, width: column.width))
                }
                y += LabelFont.lineHeight * size + 1.5
            }
            let bottom = (pageHeight ?? Style.longestRollPage) - margin
            // At least one row a page, so that the list always moves on.
            let capacity = max(1, Int(((bottom - y) / rowHeight + 1e-9).rounded(.down)))
            for row in remaining.prefix(capacity) {
                page.texts += texts(for: row, columns: columns, x: margin, top: y, width: contentWidth)
                y += rowHeight
            }
            remaining = remaining.dropFirst(capacity)
            if rows.isEmpty {
                page.texts.append(text("(no records)", font: .regular, size: Style.entrySize, x: margin, top: y,
                                       width: contentWidth))
                y += rowHeight
            }
            if pageHeight == nil { page.height = rollLength(y + margin) }
            pages.append(page)
        } while !remaining.isEmpty

        // Page numbers in the bottom margin of a sheet's pages.
        if pageHeight != nil {
            for index in pages.indices {
                let footer = "\(name) · page \(index + 1) of \(pages.count)"
                let size = Style.footerSize
                let top = pages[index].height - margin / 2 - LabelFont.ascent * size
                pages[index].texts.append(text(footer, font: .regular, size: size, x: margin, top: top, width: contentWidth))
            }
        }
        return pages
    }

    private func row(_ entry: LabelContents.Entry) -> Row {
        let artist = entry.artist.map(TextFitting.cleaned) ?? ""
        let title = entry.title.map(TextFitting.cleaned) ?? ""
        let main = switch (artist.isEmpty, title.isEmpty) {
        case (false, false): "\(artist) — \(title)"
        case (false, true): artist
        case (true, false): title
        case (true, true): "—"
        }
        return Row(main: main, format: entry.format.map(TextFitting.cleaned) ?? "",
                   year: entry.year.map(String.init) ?? "",
                   catalogueNumber: entry.catalogueNumber.map(TextFitting.cleaned) ?? "",
                   place: entry.place.map(TextFitting.cleaned) ?? "")
    }

    /// Columns sized to their widest value (format, catalogue number and place at most
    /// `widestColumn`; a place column only when a record is in a place inside the listed
    /// one), the rest for "Artist — Title"; nil when that would be too narrow.
    private func columns(for rows: [Row], x: Double, width: Double) -> Columns? {
        typealias Style = ContentsStyle
        func widest(_ values: [String], header: String) -> Double {
            let head = measurer.width(of: header, font: .bold, size: Style.columnHeadSize)
            let body = values.map { measurer.width(of: $0, font: .regular, size: Style.entrySize) }.max() ?? 0
            return min(max(head, body), Style.widestColumn)
        }
        let format = widest(rows.map(\.format), header: "Format")
        let year = widest(["0000"], header: "Year")
        let catalogueNumber = widest(rows.map(\.catalogueNumber), header: "Cat. no.")
        let place = rows.contains { !$0.place.isEmpty } ? widest(rows.map(\.place), header: "Place") : nil
        let main = width - format - year - catalogueNumber - 3 * Style.columnGap - (place.map { $0 + Style.columnGap } ?? 0)
        guard main >= Style.narrowestMainColumn else { return nil }
        let formatX = x + main + Style.columnGap
        let yearX = formatX + format + Style.columnGap
        let catalogueNumberX = yearX + year + Style.columnGap
        return Columns(main: (x, main), format: (formatX, format), year: (yearX, year),
                       catalogueNumber: (catalogueNumberX, catalogueNumber),
                       place: place.map { (catalogueNumberX + catalogueNumber + Style.columnGap, $0) })
    }

    /// A row's texts: in columns on one line, or on two lines (what, then format · year ·
    /// catalogue number) when the page is narrow.
    private func texts(for row: Row, columns: Columns?, x: Double, top: Double, width: Double) -> [PlacedText] {
        typealias Style = ContentsStyle
        guard let columns else {
            var texts = [text(row.main, font: .regular, size: Style.entrySize, x: x, top: top, width: width)]
            if !row.details.isEmpty {
                texts.append(text(row.details, font: .regular, size: Style.detailSize, x: x,
                                  top: top + LabelFont.lineHeight * Style.entrySize, width: width))
            }
            return texts
        }
        return ([(row.main, columns.main), (row.format, columns.format), (row.year, columns.year),
                 (row.catalogueNumber, columns.catalogueNumber)] + (columns.place.map { [(row.place, $0)] } ?? []))
            .filter { !$0.0.isEmpty }
            .map { text($0.0, font: .regular, size: Style.entrySize, x: $0.1.x, top: top, width: $0.1.width) }
    }

    /// `value` shortened to `width` with "…", its top (ascent) at `top`.
    private func text(_ value: String, font: LabelFont, size: Double, x: Double, top: Double, width: Double) -> PlacedText {
        let shown = TextFitting.shortened(value, font: font, size: size, fitting: width, measurer: measurer)
        var placed = line(shown, font: font, size: size)
        placed.x = x
        placed.baseline = top + LabelFont.ascent * size
        return placed
    }
}
