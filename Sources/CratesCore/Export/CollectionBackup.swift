import Foundation

/// What `crates export --json` writes besides the records, so that `crates import` can
/// restore a collection from it exactly: every place (empty ones too) with its id, the ids
/// the collection has handed out (never reused: an old label must not name a new place or
/// copy), and what `crates sync` keeps of the Discogs collection (the account, its folders,
/// each copy's link to its Discogs instance with the values of the last sync, the pushes
/// waiting).
///
/// The file is one JSON object, written one value per line so that it can be read (and
/// restored) a line at a time (`CollectionBackup.Layout`):
///
/// ```
/// {"crates":{"complete":true,"counts":{"discogsAccount":0,…,"places":1,"records":12},"format":"crates collection","sequences":{"location":3,"record":12},"version":3},
/// "places":[
/// {"code":"2900000000017","createdAt":"…","id":1,"name":"Living Room","parent":null,"path":"Living Room"},
/// ],
/// "discogsAccount":[
/// ],
/// "discogsFolder":[
/// ],
/// "discogsCopy":[
/// ],
/// "discogsOutbox":[
/// ],
/// "records":[
/// {…one record, as `crates list --json` writes it, plus its release's Discogs JSON and its history…},
/// ],
/// "digest":"sha256:…"}
/// ```
///
/// The header counts what every section holds (a whole export's), and the last line is the
/// SHA-256 of every line between the two (each line's text and its newline): a file cut
/// short, even one closed again by hand (`]}` after the 100th record), or filtered, is told
/// from a whole one before anything is restored. Version 2 files, written before the
/// counts and the digest, are still restored; only their links are checked.
///
/// The four `discogs…` sections hold those tables' rows as they are (every column, by name;
/// real numbers written exactly), since they are crates' own bookkeeping rather than a
/// collector's data.
public enum CollectionBackup {
    /// The version `crates export --json` writes; `crates import` restores this one and the
    /// one before (`readableVersions`).
    public static let version = 3
    public static let readableVersions = 2...3
    /// The member of the last line: the SHA-256 of the lines between the header and it.
    public static let digestMember = "digest"
    public static let format = "crates collection"
    /// The sections of rows stored as they are, in the order written.
    public static let tableSections = ["discogsAccount", "discogsFolder", "discogsCopy", "discogsOutbox"]

    /// The header: whether every record is in the file (no `--genre`, `--state` or
    /// `--location`), and the largest ids handed out so far.
    public struct Header: Hashable, Sendable {
        public var complete: Bool
        public var recordSequence: Int64
        public var locationSequence: Int64
        /// How many elements each section holds ("places", "records" and the table sections):
        /// a whole export's; nil in a filtered one, and in version 2 files.
        public var counts: [String: Int]?
        /// The file's version (`version` for what this crates writes).
        public var version: Int

        public init(complete: Bool, recordSequence: Int64, locationSequence: Int64, counts: [String: Int]? = nil, version: Int = CollectionBackup.version) {
            self.complete = complete
            self.recordSequence = recordSequence
            self.locationSequence = locationSequence
            self.counts = counts
            self.version = version
        }
    }

    /// A place as the file keeps it.
    public struct Place: Hashable, Sendable {
        public var id: Int64
        public var parentID: Int64?
        public var name: String
        public var createdAt: Date
        /// Written for a reader (the label's digits and the whole path); not read back.
        public var path: String

        public init(id: Int64, parentID: Int64?, name: String, createdAt: Date, path: String) {
            self.id = id
            self.parentID = parentID
            self.name = name
            self.createdAt = createdAt
            self.path = path
        }
    }

    /// A column's value in a table section.
    public enum Value: Hashable, Sendable {
        case null
        case integer(Int64)
        case real(Double)
        case text(String)
    }

    /// A table row: its columns by name, in the table's order.
    public typealias Row = [(column: String, value: Value)]

    // MARK: Writing

    /// The first line (the object's opening and its `crates` member).
    public static func headerLine(_ header: Header) -> String {
        var out = JSONLineBuilder()
        out.open()
        out.member("complete") { $0.raw(header.complete ? "true" : "false") }
        if let counts = header.counts {
            out.member("counts") { out in
                out.open()
                for (name, count) in counts.sorted(by: { $0.key < $1.key }) { out.member(named: name) { $0.raw(String(count)) } }
                out.close()
            }
        }
        out.member("format") { $0.string(format) }
        out.member("sequences") { out in
            out.open()
            out.member("location") { $0.raw(String(header.locationSequence)) }
            out.member("record") { $0.raw(String(header.recordSequence)) }
            out.close()
        }
        out.member("version") { $0.raw(String(header.version)) }
        out.close()
        return "{\"crates\":" + String(decoding: out.bytes, as: UTF8.self) + ",\n"
    }

    /// The last line: the SHA-256 (64 hex digits) of the lines after the header, and the
    /// object's end.
    public static func digestLine(sha256: String) -> String {
        "\"\(digestMember)\":\"sha256:\(sha256)\"}\n"
    }

    /// The hex digits of a digest line's value (`"digest":"sha256:…"}`); nil when the line is
    /// no digest line.
    public static func digest(inLine line: String) -> String? {
        let prefix = "\"\(digestMember)\":\"sha256:"
        guard line.hasPrefix(prefix), line.hasSuffix("\"}") else { return nil }
        let hex = line.dropFirst(prefix.count).dropLast(2)
        guard hex.count == 64, hex.allSatisfy(\.isHexDigit) else { return nil }
        return hex.lowercased()
    }

    /// `"name":[` on its own line.
    public static func sectionOpening(_ name: String) -> String { "\"\(name)\":[\n" }

    /// A section's elements, one a line, with a comma after all but the last; then `]`
    /// and `,` (or `}` after the last section).
    public static func sectionClosing(last: Bool) -> String { last ? "]}\n" : "],\n" }

    public static func placeLine(_ place: Place) -> String {
        var out = JSONLineBuilder()
        out.open()
        out.member("code") { $0.string(LabelCode(kind: .location, id: Int(place.id))?.digits) }
        out.member("createdAt") { $0.string(UTCTimestamp.format(place.createdAt, .iso8601)) }
        out.member("id") { $0.raw(String(place.id)) }
        out.member("name") { $0.string(place.name) }
        out.member("parent") { $0.raw(place.parentID.map { String($0) } ?? "null") }
        out.member("path") { $0.string(place.path) }
        out.close()
        return String(decoding: out.bytes, as: UTF8.self)
    }

    public static func rowLine(_ row: Row) -> String {
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        for (index, (column, value)) in row.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            var out = JSONLineBuilder(bytes: bytes)
            out.string(column)
            bytes = out.bytes
            bytes.append(UInt8(ascii: ":"))
            switch value {
            case .null: bytes += Array("null".utf8)
            case .integer(let number): bytes += Array(String(number).utf8)
            // `description` is the shortest text that reads back as the same Double.
            case .real(let number): bytes += Array((number.isFinite ? number.description : "null").utf8)
            case .text(let text):
                var out = JSONLineBuilder(bytes: bytes)
                out.string(text)
                bytes = out.bytes
            }
        }
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: Reading

    /// Why a line of the file cannot be restored.
    public struct ReadError: Error, Hashable, Sendable, CustomStringConvertible {
        public var description: String
        public init(_ description: String) { self.description = description }
    }

    public static func header(_ node: JSONNode) throws(ReadError) -> Header {
        guard node["format"]?.string == format else { throw ReadError("not crates' export (no \"format\":\"\(format)\")") }
        guard let version = node["version"]?.int else { throw ReadError("the export has no version") }
        guard readableVersions.contains(version) else {
            throw ReadError(
                version > Self.version
                    ? "written by a newer crates (export version \(version)): update crates to restore it"
                    : "export version \(version) cannot be restored")
        }
        guard let complete = node["complete"]?.bool, let sequences = node["sequences"],
              let records = sequences["record"]?.int64, let locations = sequences["location"]?.int64
        else { throw ReadError("the export's header is incomplete") }
        var counts: [String: Int]?
        if let node = node["counts"] {
            guard case .object(let members, _) = node else { throw ReadError("the export's counts are not an object") }
            var read: [String: Int] = [:]
            for (name, value) in members {
                guard let count = value.int, count >= 0 else { throw ReadError("the export's count of \(name) is not a number") }
                read[name] = count
            }
            counts = read
        } else if version >= 3, complete {
            throw ReadError("the export's header has no counts")
        }
        return Header(complete: complete, recordSequence: records, locationSequence: locations, counts: counts, version: version)
    }

    public static func place(_ node: JSONNode) throws(ReadError) -> Place {
        guard let id = node["id"]?.int64, id > 0, let name = node["name"]?.string,
              let parent = node["parent"], parent.isNull || parent.int64 != nil,
              let created = node["createdAt"]?.string, let createdAt = UTCTimestamp.parse(created)
        else { throw ReadError("a place without its id, name, parent or createdAt") }
        return Place(id: id, parentID: parent.int64, name: name, createdAt: createdAt, path: node["path"]?.string ?? name)
    }

    public static func row(_ node: JSONNode) throws(ReadError) -> [String: Value] {
        guard case .object(let members, _) = node else { throw ReadError("a row that is not an object") }
        var row: [String: Value] = [:]
        for (column, value) in members {
            switch value {
            case .null: row[column] = .null
            case .string(let text): row[column] = .text(text)
            case .number(let text):
                if let integer = Int64(text) {
                    row[column] = .integer(integer)
                } else if let real = Double(text) {
                    row[column] = .real(real)
                } else {
                    throw ReadError("\(column): \(text) is not a number crates reads")
                }
            case .bool(let flag): row[column] = .integer(flag ? 1 : 0)
            default: throw ReadError("\(column): a value that is not a number, a text or null")
            }
        }
        return row
    }
}
