import CratesCore
import CratesLabels
import CratesStore
import Foundation

/// `crates labels`: a PDF of labels for places (each with its contents list, on request)
/// and for copies, on a sheet or roll layout. crates writes the PDF; printing it is the
/// person's (`lp FILE.pdf`).
public struct LabelPrinting: Sendable {
    /// What to print, and how.
    public struct Request: Hashable, Sendable {
        /// Places by name, path, "#id" or label code (`LocationReference`).
        public var places: [String]
        /// Every place, in the tree's order.
        public var all: Bool
        /// Copies by record id or copy label: a label each, with the copy's own code.
        public var records: [String]
        /// `records` read as a query (`--records artist:queen`): a label for each copy the
        /// query keeps, and none kept is refused (`noRecordMatches`).
        public var recordQuery: RecordQuery?
        /// A layout name (`LabelSheetLayout.named`).
        public var layout: String
        /// After the labels, each place's contents list on a page of its own.
        public var contents: Bool
        /// `--skip`, `--bleed` and `--dpi` (see `LabelOptions`).
        public var options: LabelOptions

        public init(
            places: [String] = [], all: Bool = false, records: [String] = [], recordQuery: RecordQuery? = nil, layout: String,
            contents: Bool = false, skip: Int = 0, bleed: Double = 0, dpi: Int = 300
        ) {
            self.places = places
            self.all = all
            self.records = records
            self.recordQuery = recordQuery
            self.layout = layout
            self.contents = contents
            options = LabelOptions(skip: skip, bleed: bleed, dpi: dpi)
        }
    }

    /// The built-in layouts' names, for help texts.
    public static var layoutNames: [String] { LabelSheetLayout.builtIn.map(\.name) }
    /// The custom sheet's form and an example, for help texts.
    public static var customSheetSyntax: String { LabelSheetLayout.customSheetSyntax }
    public static var customSheetExample: String { LabelSheetLayout.customSheetExample }

    public let store: CollectionStore

    public init(store: CollectionStore) {
        self.store = store
    }

    /// Lays the labels out: everything that can be wrong (an unknown layout, a name longer
    /// than a label, an unknown place or record) is found here, before anything is written.
    public func document(for request: Request) async throws -> LabelDocument {
        try await prepared(request).document
    }

    /// The document, and the places `--all` had to leave out (ids past what a label code
    /// holds: said, never dropped silently).
    private func prepared(_ request: Request) async throws -> (document: LabelDocument, leftOut: [Location]) {
        var copies = request.records
        if let query = request.recordQuery {
            copies = try await store.recordIDs(matching: query).map(String.init)
            if copies.isEmpty { throw LabelPrintingError.noRecordMatches(request.records.joined(separator: " ")) }
        }
        // The layout first: a misspelt one is said before anything else is looked at.
        let layout = try LabelSheetLayout.named(request.layout)
        var places: [Location] = []
        var seen: Set<Int64> = []
        let tree = try await store.locationTree()
        for name in request.places {
            let place: Location
            do {
                place = try tree.resolve(name)
            } catch {
                throw StoreError.location(error)
            }
            // A place named on purpose that cannot have a label is refused.
            if place.code == nil { throw LabelPrintingError.noCode(place: place.pathText, reference: place.reference) }
            if seen.insert(place.id).inserted { places.append(place) }
        }
        if request.all {
            for node in tree.nodes where seen.insert(node.id).inserted {
                if let place = tree.location(node.id) { places.append(place) }
            }
        }
        let leftOut = places.filter { $0.code == nil }
        places.removeAll { $0.code == nil }
        var labels: [Label] = []
        var contents: [LabelContents] = []
        let records = request.contents ? try await entries(listedIn: Set(places.map(\.id)), tree: tree) : [:]
        for place in places {
            guard let code = place.code else { continue }
            let label = Label(location: code, name: place.name, path: Self.shownPath(place.ancestors))
            labels.append(label)
            if request.contents {
                let inside = tree.children(of: place.id).map { child in
                    LabelContents.Entry.place(
                        name: child.name, records: tree.total(child.id), code: LabelCode(kind: .location, id: Int(child.id))?.digits)
                }
                contents.append(LabelContents(label: label, entries: (records[place.id] ?? []) + inside))
            }
        }
        for text in copies {
            labels.append(try await copyLabel(text))
        }
        guard !labels.isEmpty else { throw LabelPrintingError.nothingChosen(noPlaces: tree.isEmpty) }
        return (try LabelDocument(labels: labels, contents: contents, layout: layout, options: request.options), leftOut)
    }

    /// What `write` wrote, in words.
    public struct Written: Hashable, Sendable {
        /// "Wrote 3 labels on 1 page (a4-3x7) to labels.pdf; …".
        public var summary: String
        /// One line per label whose title was cut to fit, naming its code and whole title.
        public var cut: [String]
    }

    /// Lays out and writes the PDF to `path` (`-`: standard output), replacing it atomically;
    /// returns what was written, in words.
    public func write(_ request: Request, to path: String) async throws -> Written {
        let (document, leftOut) = try await prepared(request)
        let bytes = try document.pdf()
        // Never over the collection's own files.
        try ExportFile.write(bytes: bytes, to: path, sparing: store.path)
        return Written(
            summary: Self.summary(document.plan, path: path) + Self.leftOutSentence(leftOut),
            cut: document.plan.cut.map(Self.cutSentence))
    }

    /// "label 2900000000018 cut to fit: "Living Room Record Shelf…" of "Living Room Record
    /// Shelf by the Window"": the label still scans as its place or copy (the code is whole),
    /// but its text reads shorter than the name.
    static func cutSentence(_ label: PlacedLabel) -> String {
        let shown = label.texts.first?.text ?? ""
        let whole = label.cutFrom ?? ""
        return "label \(label.code.canonical) cut to fit: \"\(ControlCharacters.cleaned(shown))\" of \"\(ControlCharacters.cleaned(whole))\""
    }

    /// "; 1 place left out: Attic (#1000000000): a label code holds ids up to 999,999,999".
    static func leftOutSentence(_ places: [Location]) -> String {
        guard !places.isEmpty else { return "" }
        let named = places.prefix(5).map { "\($0.pathText) (\($0.reference))" }.joined(separator: ", ")
        let more = places.count > 5 ? " and \(places.count - 5) more" : ""
        return "; \(counted(places.count, "place")) left out: \(named)\(more): a label code holds ids up to \(NumberText.grouped(LabelCode.idRange.upperBound))"
    }

    /// "Wrote 3 labels and 1 contents list on 2 pages (a4-3x7) to labels.pdf; print it with
    /// `lp labels.pdf`".
    static func summary(_ plan: LabelDocumentPlan, path: String) -> String {
        // A contents list's first page carries its place's label as a heading, and text.
        let printed = plan.pages.filter { $0.texts.isEmpty }.reduce(0) { $0 + $1.labels.count }
        let lists = plan.pages.filter { !$0.texts.isEmpty && !$0.labels.isEmpty }.count
        var what = counted(printed, "label")
        if lists > 0 { what += " and " + counted(lists, "contents list") }
        let target = path == "-" ? "standard output" : path
        let print = path == "-" ? "" : "; print it with `lp \(path)`"
        return "Wrote \(what) on \(counted(plan.pages.count, "page")) (\(plan.layout)) to \(target)\(print)"
    }

    /// The places above a place, as far out as a label could show them: no label holds more
    /// than a few dozen at its path's size, and the ones further out give way to "…" anyway.
    static func shownPath(_ ancestors: [String]) -> [String] {
        let most = 48
        return ancestors.count <= most ? ancestors : ["…"] + ancestors.suffix(most - 1)
    }

    /// The records of each listed place, in the list's order, read in one pass. Each record
    /// is on exactly one list of a document: its nearest place listed, so that a place's
    /// list names the records in it and in the places inside it that have no list of their
    /// own here, each with where it is inside ("Shelf 2 › Crate A3"), while a place inside
    /// that is listed too keeps its records for its own list (and is one line, `▸`, on
    /// this one). Listing every nested record on every list above it made the lists, and
    /// the time, grow with the square of the depth.
    private func entries(listedIn listed: Set<Int64>, tree: LocationTree) async throws -> [Int64: [LabelContents.Entry]] {
        let owners = Self.owners(of: listed, in: tree)
        let collected = LockedBox<[Int64: [LabelContents.Entry]]>([:])
        let paths = LockedBox<[Int64: String]>([:])
        try await store.forEachPage(ExportFilter(directlyIn: Set(owners.keys)), detail: .listing) { page in
            collected.withLock { byPlace in
                for item in page {
                    guard let place = item.record.location?.id, let owner = owners[place] else { continue }
                    var inside: String?
                    if place != owner {
                        inside = paths.withLock { known -> String in
                            if let path = known[place] { return path }
                            let path = Self.path(of: place, inside: owner, in: tree)
                            known[place] = path
                            return path
                        }
                    }
                    byPlace[owner, default: []].append(Self.entry(item.shown, subject: item.record.subject, place: inside))
                }
            }
        }
        return collected.withLock { $0 }
    }

    /// The listed place each place's records go to: the place itself when listed, else its
    /// nearest listed place above it; places under no listed one are left out. Each place is
    /// visited once (a walk down from each listed place stops at the listed places below).
    static func owners(of listed: Set<Int64>, in tree: LocationTree) -> [Int64: Int64] {
        var owners: [Int64: Int64] = [:]
        for top in listed {
            var stack = [top]
            while let place = stack.popLast() {
                guard owners[place] == nil else { continue }
                owners[place] = top
                stack += tree.children(of: place).map(\.id).filter { !listed.contains($0) }
            }
        }
        return owners
    }

    /// "Shelf 2 › Crate A3": the path from inside `owner` down to `place`.
    static func path(of place: Int64, inside owner: Int64, in tree: LocationTree) -> String {
        var names: [String] = []
        var current: Int64? = place
        while let id = current, id != owner, let node = tree.node(id), names.count <= tree.nodes.count {
            names.append(node.name)
            current = node.parentID
        }
        return names.reversed().joined(separator: Label.pathSeparator)
    }

    /// A record in a contents list, with the values shown for it (the collector's over
    /// Discogs'); `subject` (its barcode, or what it says of itself) when it has neither
    /// artist nor title yet; `place`: where it is inside the listed place (nil: in it).
    static func entry(_ shown: RecordFields, subject: String, place: String? = nil) -> LabelContents.Entry {
        guard shown.artist != nil || shown.title != nil else { return LabelContents.Entry(title: subject, place: place) }
        return LabelContents.Entry(
            artist: shown.artist, title: shown.title, format: shown.format, year: shown.year, catalogueNumber: shown.catno,
            place: place)
    }

    /// A copy's label: its own code (291 + the record id), "Artist — Title" as shown (the
    /// barcode before its lookup), and format, year and catalogue number beneath.
    private func copyLabel(_ text: String) async throws -> Label {
        let id: Int64
        switch LocationDirectory.recordID(text) {
        case .success(let found): id = found
        case .failure(let error): throw StoreError.location(error)
        }
        guard let details = try await store.details(id) else { throw StoreError.recordNotFound(id) }
        guard let code = LabelCode(kind: .copy, id: Int(id)) else { throw LabelPrintingError.noCode(place: nil, reference: String(id)) }
        let shown = details.shown
        let facts = [shown.format, shown.year.map(String.init), shown.catno]
            .compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " · ")
        return Label(copy: code, title: details.displayTitle, path: facts.isEmpty ? [details.record.subject] : [facts])
    }
}

/// Why `crates labels` has nothing to print.
public enum LabelPrintingError: Error, CustomStringConvertible {
    case nothingChosen(noPlaces: Bool)
    /// A place (its path) or a copy (nil) whose id is past what a label code holds.
    case noCode(place: String?, reference: String)
    /// `--records QUERY` kept no record (the query as typed).
    case noRecordMatches(String)

    public var description: String {
        switch self {
        case .noCode(let place?, let reference):
            "\(place) (\(reference)) cannot have a label: a label code holds ids up to \(NumberText.grouped(LabelCode.idRange.upperBound))"
        case .noCode(nil, let reference):
            "copy \(reference) cannot have a label: a label code holds ids up to \(NumberText.grouped(LabelCode.idRange.upperBound))"
        case .noRecordMatches(let query):
            "nothing to print: no record matches \(query)"
        case .nothingChosen(let noPlaces):
            noPlaces
                ? "nothing to print: the collection has no places yet (`crates location add NAME`), and no --records were given"
                : "nothing to print: name the places, or give --all, or --records ID..."
        }
    }
}
