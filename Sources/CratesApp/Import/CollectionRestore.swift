import CratesCore
import CratesStore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `crates import` of crates' own `export --json` file: the collection restored exactly, into
/// an empty one — every record with its id (so its copy label), values, state, place, grades,
/// rating, note, release and history; every place with its id (so its label code), empty
/// ones too; the Discogs account, folders, links and pending pushes; and the ids handed out,
/// so none is given again.
///
/// The file is read a line at a time (`CollectionBackup`'s layout) inside one write
/// transaction: memory holds one line, and a line crates cannot read, a filtered export or
/// Ctrl-C leaves the collection as it was (empty).
public enum CollectionRestore {
    /// What a restore wrote.
    public struct Outcome: Hashable, Sendable {
        public var records = 0
        public var places = 0
        /// Rows of the Discogs sections (account, folders, links, pushes).
        public var discogsRows = 0
        /// Records whose lookup waits (pending, being looked up, failed).
        public var waiting = 0
    }

    /// Why nothing was restored.
    public enum Failure: Error, CustomStringConvertible {
        case readFailed(name: String, reason: String)
        case line(name: String, line: Int, reason: String)
        case filtered(name: String)
        case notEmpty(CatalogueStore.RestoreRefusal)
        case store(name: String, String)
        case interrupted

        public var description: String {
            switch self {
            case .readFailed(let name, let reason): "cannot read \(name): \(reason); nothing was restored"
            case .line(let name, let line, let reason): "\(name):\(line): \(reason); nothing was restored"
            case .filtered(let name):
                "\(name) is an export of part of the collection (--genre, --state or --location): only a whole export "
                    + "restores a collection; nothing was restored"
            case .notEmpty(let refusal): "\(refusal); nothing was restored"
            case .store(let name, let reason): "\(name): \(reason); nothing was restored"
            case .interrupted: "Interrupted: nothing was restored"
            }
        }
    }

    /// The longest line read: a record with Discogs' JSON of a large box set is a few
    /// hundred kilobytes.
    public static let maximumLineLength = 16 << 20

    /// Bytes of an input's start that `isExport` needs (`ImportInput.peek`).
    public static let signatureLength = 256

    /// Whether an input whose first bytes are `start` is crates' JSON export (`{"crates":`,
    /// after any byte order mark or whitespace).
    public static func isExport(start: [UInt8]) -> Bool {
        var bytes = start[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        let text = bytes.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        return text.starts(with: Array("{\"crates\":".utf8))
    }

    /// Restores the export `source` holds into `store` (which must be empty): `prefix` (the
    /// bytes `ImportInput.peek` took from it), then the rest.
    public static func run(
        source: ImportInput.Source, prefix: [UInt8], store: CatalogueStore, shouldContinue: @escaping @Sendable () -> Bool
    ) async throws(Failure) -> Outcome {
        let (fd, name) = (source.descriptor, source.name)
        do {
            return try await store.restore { writer in
                try read(fd: fd, name: name, prefix: prefix, into: writer, shouldContinue: shouldContinue)
            }
        } catch let failure as Failure {
            throw failure
        } catch let refusal as CatalogueStore.RestoreRefusal {
            throw .notEmpty(refusal)
        } catch {
            throw .store(name: name, "\(error)")
        }
    }

    /// Where the reading is in the file's layout.
    private enum Position {
        case header
        case between
        case section(String)
        case end
    }

    private static func read(
        fd: Int32, name: String, prefix: [UInt8], into writer: CatalogueStore.RestoreWriter, shouldContinue: () -> Bool
    ) throws -> Outcome {
        var outcome = Outcome()
        var position = Position.header
        var splitter = ImportLineSplitter(maximumLength: maximumLineLength)
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)

        func take(_ piece: ImportLineSplitter.Piece) throws {
            guard case .line(let number, var bytes) = piece else {
                if case .tooLong(let number, let length) = piece {
                    throw Failure.line(name: name, line: number, reason: "a line of \(length) bytes, more than crates writes")
                }
                return
            }
            func fail(_ reason: String) -> Failure { .line(name: name, line: number, reason: reason) }
            if number == 1, bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
            while let last = bytes.last, last == 0x20 || last == 0x09 || last == 0x0D { bytes = bytes.dropLast() }
            while let first = bytes.first, first == 0x20 || first == 0x09 { bytes = bytes.dropFirst() }
            if bytes.isEmpty { return }
            let text = { String(decoding: bytes, as: UTF8.self) }
            func value(_ slice: ArraySlice<UInt8>) throws -> JSONNode {
                do {
                    return try JSONNode.parse(slice)
                } catch {
                    throw fail("\(error)")
                }
            }
            switch position {
            case .header:
                let prefix = Array("{\"crates\":".utf8)
                guard bytes.starts(with: prefix), bytes.last == UInt8(ascii: ",") else {
                    throw fail("not crates' JSON export (it starts with {\"crates\":)")
                }
                let header: CollectionBackup.Header
                do {
                    header = try CollectionBackup.header(try value(bytes.dropFirst(prefix.count).dropLast()))
                } catch let error as CollectionBackup.ReadError {
                    throw fail(error.description)
                }
                guard header.complete else { throw Failure.filtered(name: name) }
                writer.header(header)
                position = .between
            case .between:
                let line = text()
                guard line.hasPrefix("\""), line.hasSuffix("\":[") else {
                    throw fail("expected a section (\"places\":[ …), found \(EscapedText.displayForm(of: line, limit: 40))")
                }
                position = .section(String(line.dropFirst().dropLast(3)))
            case .section(let section):
                if bytes.elementsEqual("],".utf8) {
                    position = .between
                    return
                }
                if bytes.elementsEqual("]}".utf8) {
                    guard section == "records" else { throw fail("the export ends before its records") }
                    position = .end
                    return
                }
                var element = bytes
                if element.last == UInt8(ascii: ",") { element = element.dropLast() }
                let node = try value(element)
                do {
                    switch section {
                    case "places":
                        try writer.place(try CollectionBackup.place(node))
                        outcome.places += 1
                    case "records":
                        let entry = try ExportedRecord(restoring: node, line: element)
                        try writer.record(entry)
                        outcome.records += 1
                        if [.pending, .lookingUp, .failed].contains(entry.record.lookupState) { outcome.waiting += 1 }
                    case let table where CollectionBackup.tableSections.contains(table):
                        try writer.row(table, try CollectionBackup.row(node))
                        outcome.discogsRows += 1
                    default:
                        throw fail("a section this crates does not know (\(section)): written by a newer crates")
                    }
                } catch let error as CollectionBackup.ReadError {
                    throw fail(error.description)
                }
            case .end:
                throw fail("text after the end of the export")
            }
        }

        try splitter.feed(prefix, take)
        while true {
            guard shouldContinue() else { throw Failure.interrupted }
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure.readFailed(name: name, reason: String(cString: strerror(errno)))
            }
            if count == 0 { break }
            try splitter.feed(count == buffer.count ? buffer : Array(buffer[0..<count]), take)
        }
        try splitter.finish(take)
        guard case .end = position else {
            throw Failure.line(name: name, line: splitter.lineCount, reason: "the export ends early (it was cut short)")
        }
        return outcome
    }
}
