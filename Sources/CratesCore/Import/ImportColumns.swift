import Foundation

/// Which columns of a CSV import file crates reads, found by their header names
/// (case, spaces, `_` and `-` ignored), and what separates them.
public struct ImportColumns: Hashable, Sendable {
    /// The header as written.
    public var names: [String]
    /// The field delimiter: a comma, or a semicolon or a tab (sniffed from the header).
    public var delimiter: UInt8
    /// The index of the barcode column (`barcode`, `gtin`, `upc`, `ean`…), if any.
    public var barcode: Int?
    /// The index of Discogs' `release_id` column, if any.
    public var releaseID: Int?
    /// The index of the note column (`note`, `notes`, else `Collection Notes`), if any.
    public var note: Int?
    /// The index of the date-added column (`Date Added`, `added`…), if any.
    public var date: Int?
    /// The index of the location column (`location`, or Discogs' `CollectionFolder`), if any.
    public var location: Int?
    /// The index of Discogs' `CollectionFolder` column (or `folder`), if any.
    public var folder: Int?
    /// What describes a record without a barcode: `artist`, `title`, `catno`
    /// (also Discogs' `Catalog#`), `label`, `year` (also `Released`), `country`, `format`.
    /// Read only for rows with neither a barcode nor a release id.
    public var described: [RecordField: Int] = [:]
    /// The grading columns (Discogs' `Collection Media Condition`, `Collection Sleeve
    /// Condition` and `Rating`, or `media`, `sleeve`, `rating`), if any.
    public var media: Int?
    public var sleeve: Int?
    public var rating: Int?
    /// crates' export's `Collector Fields`: which of the row's values are the collector's own
    /// (by their columns' names), kept as such on any row, with or without a barcode.
    public var collectorFields: Int?
    /// crates' export's `Entered By Hand`: a row marked so is a record entered by hand,
    /// stored as one and never looked up.
    public var handEntered: Int?
    /// crates' export's purchase and loan columns (`Purchase Price`, `Purchase Currency`,
    /// `Purchase Date`, `Bought From`, `Lent To`, `Lent On`, `Returned On`), if any.
    public var purchasePrice: Int?
    public var purchaseCurrency: Int?
    public var purchaseDate: Int?
    public var boughtFrom: Int?
    public var lentTo: Int?
    public var lentOn: Int?
    public var returnedOn: Int?
    /// crates' export's `Location Codes`: the label codes of the location's places.
    public var locationCodes: Int?

    /// Header names, normalised, in order of preference.
    static let barcodeNames = ["barcode", "gtin", "upc", "ean", "ean13", "upca", "upcean", "eanupc", "barcodes"]
    static let releaseNames = ["releaseid", "discogsreleaseid", "discogsrelease"]
    /// `note` before Discogs' `Collection Notes`, should a file have both.
    static let noteNames = ["note", "notes", "collectionnotes", "comment", "comments"]
    static let dateNames = ["dateadded", "added", "addedat", "date"]
    /// crates' export writes the place's path as `Location` (read first) and its name as
    /// Discogs' `CollectionFolder`.
    static let locationNames = ["location", "collectionfolder", "folder"]
    static let folderNames = ["collectionfolder", "folder"]
    /// Normalised header names of the describing columns, in order of preference.
    static let describedNames: [RecordField: [String]] = [
        .artist: ["artist", "artists"],
        .title: ["title", "releasetitle", "album"],
        .catno: ["catno", "catalog", "catalogno", "catalognumber", "cataloguenumber", "catalogueno", "catalogue", "cat"],
        .label: ["label", "labels"],
        .year: ["year", "released", "releaseyear"],
        .country: ["country"],
        .format: ["format", "formats"],
        .genre: ["genre", "genres"],
    ]
    static let mediaNames = ["collectionmediacondition", "mediacondition", "media"]
    static let sleeveNames = ["collectionsleevecondition", "sleevecondition", "sleeve"]
    static let ratingNames = ["rating", "collectionrating"]
    static let collectorFieldsNames = ["collectorfields"]
    static let handEnteredNames = ["enteredbyhand"]

    /// The columns found in a header row's names.
    public init(names: [String], delimiter: UInt8 = UInt8(ascii: ",")) {
        self.names = names
        self.delimiter = delimiter
        let normalised = names.map(Self.normalise)
        func first(_ wanted: [String]) -> Int? {
            for name in wanted { if let index = normalised.firstIndex(of: name) { return index } }
            return nil
        }
        barcode = first(Self.barcodeNames)
        releaseID = first(Self.releaseNames)
        note = first(Self.noteNames)
        date = first(Self.dateNames)
        location = first(Self.locationNames)
        folder = first(Self.folderNames)
        media = first(Self.mediaNames)
        sleeve = first(Self.sleeveNames)
        rating = first(Self.ratingNames)
        collectorFields = first(Self.collectorFieldsNames)
        handEntered = first(Self.handEnteredNames)
        purchasePrice = first(["purchaseprice", "pricepaid", "paid"])
        purchaseCurrency = first(["purchasecurrency", "currency"])
        purchaseDate = first(["purchasedate", "bought", "datebought"])
        boughtFrom = first(["boughtfrom", "purchasedfrom", "seller", "shop"])
        lentTo = first(["lentto", "loanedto"])
        lentOn = first(["lenton", "lentsince"])
        returnedOn = first(["returnedon", "returned"])
        locationCodes = first(["locationcodes"])
        for (field, wanted) in Self.describedNames {
            if let index = first(wanted) { described[field] = index }
        }
    }

    /// The places are read from Discogs' folders (the file has no `location` column).
    public var placesFromFolders: Bool { location != nil && location == folder }

    /// Whether a record can be keyed on these columns: a barcode, a release id, or a
    /// catalogue number or title to search by.
    public var hasKey: Bool { barcode != nil || releaseID != nil || described[.catno] != nil || described[.title] != nil }

    /// The key columns named more than once: for barcodes and for release ids, every column
    /// index of that kind when there are several (`barcode,barcode`, `barcode,EAN`). Which
    /// one to read would be a guess, so such a header is refused.
    var repeatedKeyColumns: [(kind: String, columns: [Int])] {
        let normalised = names.map(Self.normalise)
        var repeated: [(String, [Int])] = []
        for (kind, wanted) in [("barcode", Self.barcodeNames), ("release_id", Self.releaseNames)] {
            let columns = normalised.indices.filter { wanted.contains(normalised[$0]) }
            if columns.count > 1 { repeated.append((kind, columns)) }
        }
        return repeated
    }

    /// "Date Added" → "dateadded", "release_id" → "releaseid", "UPC/EAN" → "upcean".
    static func normalise(_ name: String) -> String {
        String(name.lowercased().unicodeScalars.filter { scalar in
            !(scalar == " " || scalar == "_" || scalar == "-" || scalar == "/" || scalar == "#" || scalar == "\t"
                || scalar == "\u{FEFF}")
        })
    }

    /// The columns when `line` is a CSV header; nil when it is not one (then the file is one
    /// barcode per line).
    ///
    /// The delimiter is sniffed: the first of comma, semicolon and tab under which the line
    /// names a key column. A line that has several fields, one with a letter, but none that
    /// crates can key on, and no field that reads as a barcode, is a header crates cannot
    /// use: an error, rather than every row refused one by one. So is a header naming a key
    /// column twice.
    static func header(_ line: ArraySlice<UInt8>, line number: Int) throws(ImportError) -> ImportColumns? {
        var widest: [String] = []
        for delimiter in CSVReader.delimiters {
            var reader = CSVReader(delimiter: delimiter)
            guard let record = reader.read(line: number, bytes: line) ?? reader.finish() else { continue }
            let names = record.fields.map { String($0.trimmingWhitespace()) }
            let columns = ImportColumns(names: names, delimiter: delimiter)
            if let repeated = columns.repeatedKeyColumns.first {
                throw .repeatedKeyColumn(
                    line: number, kind: repeated.kind, columns: repeated.columns.map { ($0 + 1, names[$0]) })
            }
            if columns.hasKey { return columns }
            if names.count > widest.count { widest = names }
        }
        let looksLikeHeader = widest.count > 1
            && widest.contains { $0.contains { $0.isLetter } }
            && !widest.contains { (try? GTIN.parse($0)) != nil }
        if looksLikeHeader { throw .noKeyColumn(line: number, columns: widest) }
        return nil
    }
}

/// The CSV format, row by row once the header is known, fed physical lines.
struct CSVFormat: Sendable {
    let columns: ImportColumns
    let strict: Bool
    /// Whether barcodes that are not a record's (an ISBN…) are taken (`--force`).
    let force: Bool
    private var reader: CSVReader

    init(columns: ImportColumns, limits: ImportParser.Limits, strict: Bool, force: Bool) {
        self.columns = columns
        self.strict = strict
        self.force = force
        reader = CSVReader(delimiter: columns.delimiter, maximumRecordLength: limits.maximumRecordLength)
        reader.rowProbe = { [columns] line in Self.looksLikeRow(line, columns: columns) }
    }

    /// Whether a line inside a quoted field reads as a row of this file: as many fields as
    /// the header (at least two), with a valid barcode or release id in the key column.
    static func looksLikeRow(_ line: ArraySlice<UInt8>, columns: ImportColumns) -> Bool {
        var probe = CSVReader(delimiter: columns.delimiter)
        guard let record = probe.read(line: 1, bytes: line) ?? probe.finish(),
              record.fields.count >= min(2, columns.names.count)
        else { return false }
        if let index = columns.releaseID, index < record.fields.count,
           ImportValidation.releaseID(record.fields[index].trimmingWhitespace()) != nil
        {
            return true
        }
        if let index = columns.barcode, index < record.fields.count {
            let text = record.fields[index].trimmingWhitespace()
            return !text.isEmpty && (try? GTIN.parse(String(text))) != nil
        }
        return false
    }

    mutating func read(_ piece: ImportLineSplitter.Piece, into collector: inout ImportCollector) {
        switch piece {
        case .line(let number, let bytes):
            if let record = reader.read(line: number, bytes: bytes) { read(record, into: &collector) }
        case .tooLong(let number, let length):
            // A physical line over the row limit: the row it is part of is refused with it.
            if let record = reader.finish(), record.line < number {
                collector.refuse(ImportRefusal(
                    line: record.line, input: "", reason: .tooLong(length: length, limit: reader.maximumRecordLength)))
            } else {
                collector.refuse(ImportRefusal(
                    line: number, input: "", reason: .tooLong(length: length, limit: reader.maximumRecordLength)))
            }
        }
    }

    /// At the end of the input: a row whose quote is still open.
    mutating func finish(into collector: inout ImportCollector) {
        if let record = reader.finish() { read(record, into: &collector) }
    }

    private func field(_ index: Int?, of record: CSVReader.Record) -> String? {
        guard let index, index < record.fields.count else { return nil }
        return record.fields[index]
    }

    private func read(_ record: CSVReader.Record, into collector: inout ImportCollector) {
        // A cell crates' export quoted against spreadsheet formulas reads as it was.
        var record = record
        for index in record.fields.indices where record.fields[index].utf8.first == UInt8(ascii: "'") {
            record.fields[index] = SpreadsheetFormula.restored(record.fields[index])
        }
        let line = record.line
        if let lastLine = record.unterminatedQuoteEndLine {
            collector.refuse(ImportRefusal(line: line, input: "", reason: .unterminatedQuote(lastLine: lastLine)))
            return
        }
        if let length = record.tooLong {
            collector.refuse(ImportRefusal(
                line: line, input: "", reason: .tooLong(length: length, limit: reader.maximumRecordLength)))
            return
        }
        if !record.rowLikeLines.isEmpty, strict {
            collector.refuse(ImportRefusal(line: line, input: "", reason: .quotedFieldSpansRows(rowLines: record.rowLikeLines)))
            return
        }
        if record.isBlank { return }
        // A `#` comment row, when the key is the first column (no barcode or release number
        // starts with #; Discogs' first column, Catalog#, may).
        if columns.barcode == 0 || columns.releaseID == 0,
           record.fields[0].trimmingWhitespace().hasPrefix("#")
        {
            return
        }
        var releaseID: Int?
        if let text = field(columns.releaseID, of: record)?.trimmingWhitespace(), !text.isEmpty {
            guard let id = ImportValidation.releaseID(text) else {
                collector.refuse(ImportRefusal(line: line, input: String(text), reason: .releaseID(String(text))))
                return
            }
            releaseID = id
        }
        var gtin: GTIN?
        if let text = field(columns.barcode, of: record), !text.trimmingWhitespace().isEmpty {
            switch ImportValidation.barcode(text, force: force) {
            case .success(let value):
                gtin = value
            case .failure(let reason):
                collector.refuse(ImportRefusal(line: line, input: String(text.trimmingWhitespace()), reason: reason))
                return
            }
        }
        var addedAt: Date?
        if let text = field(columns.date, of: record)?.trimmingWhitespace(), !text.isEmpty {
            guard let date = ImportDate.parse(String(text)) else {
                collector.refuse(ImportRefusal(line: line, input: String(text), reason: .date(String(text))))
                return
            }
            addedAt = date
        }
        var grading = CopyGrading()
        do throws(ImportRefusal.LineError) {
            grading = try ImportValidation.grading(
                media: field(columns.media, of: record), sleeve: field(columns.sleeve, of: record),
                rating: field(columns.rating, of: record))
        } catch {
            collector.refuse(ImportRefusal(line: line, input: "", reason: error))
            return
        }
        let note = field(columns.note, of: record).flatMap(ImportValidation.note)
        // The limit `crates edit` and the UI's form apply: the row is refused as a value
        // too long in a collector's column is, and the rest of the file is read.
        if let note, note.count > RecordFieldValue.maximumNoteLength {
            collector.refuse(ImportRefusal(line: line, input: "", reason: .description(
                RecordFieldError.tooLong("note", length: note.count, limit: RecordFieldValue.maximumNoteLength).description)))
            return
        }
        // Discogs files every copy in a folder; "Uncategorized" is its default, not a place.
        let location = field(columns.location, of: record).flatMap(ImportValidation.note)
            .flatMap { $0.lowercased() == "uncategorized" ? nil : $0 }
        var described: RecordFields?
        if gtin == nil, releaseID == nil {
            switch describedFields(of: record) {
            case .success(let fields): described = fields
            case .failure(let reason):
                collector.refuse(ImportRefusal(line: line, input: "", reason: reason))
                return
            }
        }
        var own: RecordFields?
        switch collectorValues(of: record) {
        case .success(let fields): own = fields
        case .failure(let reason):
            collector.refuse(ImportRefusal(line: line, input: "", reason: reason))
            return
        }
        let purchase: Purchase
        let loan: Loan?
        switch personalValues(of: record) {
        case .success(let values): (purchase, loan) = values
        case .failure(let reason):
            collector.refuse(ImportRefusal(line: line, input: "", reason: reason))
            return
        }
        let handEntered = field(columns.handEntered, of: record).map { !$0.trimmingWhitespace().isEmpty } ?? false
        if handEntered, described == nil, own == nil {
            collector.refuse(ImportRefusal(
                line: line, input: "", reason: .description("entered by hand, but the row has no value of its own")))
            return
        }
        guard var entry = ImportEntry(
            line: line, gtin: gtin, releaseID: releaseID, note: note, addedAt: addedAt, location: location,
            described: described, grading: grading, collector: own, handEntered: handEntered)
        else {
            collector.refuse(ImportRefusal(line: line, input: "", reason: .noBarcode))
            return
        }
        entry.purchase = purchase
        entry.loan = loan
        if location != nil, let text = field(columns.locationCodes, of: record) {
            entry.locationCodes = DiscogsCollectionCSV.placeIDs(text) ?? []
        }
        collector.add(entry)
        if !record.rowLikeLines.isEmpty {
            collector.warn(ImportWarning(line: line, kind: .quotedFieldSpansRows(rowLines: record.rowLikeLines)))
        }
    }

    /// The collector's own values of a row of crates' export: the columns its `Collector
    /// Fields` names, checked as `crates edit` checks them. Nil without that column, or when
    /// it names none.
    private func collectorValues(of record: CSVReader.Record) -> Result<RecordFields?, ImportRefusal.LineError> {
        guard let names = field(columns.collectorFields, of: record), !names.trimmingWhitespace().isEmpty else {
            return .success(nil)
        }
        var fields = RecordFields()
        for name in names.split(separator: ",") {
            guard let recordField = DiscogsCollectionCSV.field(ofColumn: name) else {
                return .failure(.description("Collector Fields names \"\(name.trimmingWhitespace())\", which is no column crates writes"))
            }
            guard let index = columns.described[recordField], let text = field(index, of: record) else {
                return .failure(.description("Collector Fields names \(DiscogsCollectionCSV.column(of: recordField)), but the file has no such column"))
            }
            var value = String(text)
            if recordField == .year, let year = Self.year(value) { value = year }
            do {
                fields.set(recordField, try RecordFieldValue.checked(value, recordField))
            } catch {
                return .failure(.description(error.description))
            }
        }
        return .success(fields.isEmpty ? nil : fields)
    }

    /// The row's purchase and loan (crates' export's own columns), checked as `crates edit`
    /// checks them: an amount, a currency crates knows, days that exist.
    private func personalValues(of record: CSVReader.Record) -> Result<(Purchase, Loan?), ImportRefusal.LineError> {
        func text(_ index: Int?) -> String? {
            field(index, of: record).map { String($0.trimmingWhitespace()) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        do {
            let change = try PurchaseChange.checked(
                price: text(columns.purchasePrice), currency: text(columns.purchaseCurrency), date: text(columns.purchaseDate),
                from: text(columns.boughtFrom))
            let purchase = change.applied(to: .none)
            guard let to = text(columns.lentTo) else { return .success((purchase, nil)) }
            guard case .set(let loan)? = try LoanChange.checked(lentTo: to, lentOn: text(columns.lentOn), returned: false) else {
                return .success((purchase, nil))
            }
            var lent = loan
            if text(columns.lentOn) == nil { lent.since = nil }
            if let returned = text(columns.returnedOn) {
                guard let day = DayText.checked(returned) else {
                    return .failure(.description(PurchaseLoanError.day("returned", returned).description))
                }
                lent.returned = day
            }
            return .success((purchase, lent))
        } catch {
            return .failure(.description(error.description))
        }
    }

    /// Discogs' `Released` ("1973", "1973-03-01", "0" for unknown) as a year, nil when unknown.
    static func year(_ text: String) -> String? {
        let digits = String(text.prefix(while: { $0.isASCII && $0.isNumber }))
        return digits.count == 4 && text.count >= 4 ? (digits == "0000" ? nil : digits) : (text == "0" ? nil : text)
    }

    /// The row's describing values, checked as a search would check them (a control
    /// character, a field too long, a year out of range are refused, costing no request).
    /// Nil when the row describes nothing; a row with values but no catalogue number and no
    /// title cannot be found (`ImportEntry` then refuses it).
    private func describedFields(of record: CSVReader.Record) -> Result<RecordFields?, ImportRefusal.LineError> {
        var texts: [RecordField: String] = [:]
        for (field, index) in columns.described {
            guard let text = self.field(index, of: record)?.trimmingWhitespace(), !text.isEmpty else { continue }
            texts[field] = String(text)
        }
        if let year = texts[.year] { texts[.year] = Self.year(year) }
        guard !texts.isEmpty else { return .success(nil) }
        do {
            _ = try ReleaseSearchQuery(
                artist: texts[.artist], title: texts[.title], catno: texts[.catno], label: texts[.label],
                year: texts[.year], country: texts[.country], format: texts[.format])
        } catch {
            return .failure(.description(error.description))
        }
        var fields = RecordFields()
        for (field, text) in texts {
            // Checked above as a search; trimmed here as the record keeps it.
            fields.set(field, (try? RecordFieldValue.checked(text, field)) ?? text)
        }
        return .success(fields)
    }
}
