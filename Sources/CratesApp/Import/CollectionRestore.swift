import CratesCore
import CratesNet
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
        /// Discogs links to records the file did not hold (a version 2 file, which cannot
        /// tell a copy deleted in crates from one it lost): kept as faults, which a sync
        /// reports and never removes on Discogs.
        public var linksWithoutRecord = 0
    }

    /// Why nothing was restored.
    public enum Failure: Error, CustomStringConvertible {
        case readFailed(name: String, reason: String)
        case line(name: String, line: Int, reason: String)
        case filtered(name: String)
        case notEmpty(CollectionStore.RestoreError)
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

    /// A dry run's whole reading, thrown out of the restore's transaction so that it rolls
    /// back: every check a restore makes was made, and nothing stays written.
    private struct DryRunEnd: Error {
        let outcome: Outcome
    }

    /// Restores the export `source` holds into `store` (which must be empty): `prefix` (the
    /// bytes `ImportInput.peek` took from it), then the rest. With `dryRun`, the file is read
    /// and checked as for a restore, in the same transaction, which is then rolled back:
    /// the outcome is what a restore would write.
    ///
    /// Cancelling the task stops the reading between chunks (`interrupted`): the one
    /// transaction is rolled back, and nothing is restored.
    public static func run(
        source: ImportInput.Source, prefix: [UInt8], store: CollectionStore, dryRun: Bool = false
    ) async throws(Failure) -> Outcome {
        let (fd, name) = (source.descriptor, source.name)
        let stop = StopFlag()
        do {
            return try await withTaskCancellationHandler {
                try await store.restore { writer in
                    let outcome = try read(fd: fd, name: name, prefix: prefix, into: writer, stop: stop)
                    if dryRun { throw DryRunEnd(outcome: outcome) }
                    return outcome
                }
            } onCancel: {
                stop.set()
            }
        } catch _ where stop.isSet {
            // However the store said it (GRDB's own `CancellationError` before the
            // transaction began), a cancelled restore restored nothing.
            throw .interrupted
        } catch let end as DryRunEnd {
            return end.outcome
        } catch let failure as Failure {
            throw failure
        } catch let refusal as CollectionStore.RestoreError {
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
        /// A version 3 file's records closed: its digest line comes next.
        case digest
        case end
    }

    private static func read(
        fd: Int32, name: String, prefix: [UInt8], into writer: CollectionStore.RestoreWriter, stop: StopFlag
    ) throws -> Outcome {
        var outcome = Outcome()
        var position = Position.header
        var splitter = ImportLineSplitter(maximumLength: maximumLineLength)
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        var header: CollectionBackup.Header?
        /// What each section held, to compare with the header's counts.
        var counted: [String: Int] = [:]
        /// Every line after the header, as written (its text and a newline), up to the digest.
        let digest = SHA256Digest()

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
            case .header, .digest, .end: break
            case .between, .section:
                // The digest is of the lines as the export wrote them, each with its newline.
                bytes.withUnsafeBytes { digest.update($0) }
                [UInt8(ascii: "\n")].withUnsafeBytes { digest.update($0) }
            }
            switch position {
            case .header:
                let prefix = Array("{\"crates\":".utf8)
                guard bytes.starts(with: prefix), bytes.last == UInt8(ascii: ",") else {
                    throw fail("not crates' JSON export (it starts with {\"crates\":)")
                }
                let read: CollectionBackup.Header
                do {
                    read = try CollectionBackup.header(try value(bytes.dropFirst(prefix.count).dropLast()))
                } catch let error as CollectionBackup.ReadError {
                    throw fail(error.description)
                }
                guard read.complete else { throw Failure.filtered(name: name) }
                writer.header(read)
                header = read
                position = .between
            case .between:
                let line = text()
                if line.hasPrefix("\"\(CollectionBackup.digestMember)\":") {
                    throw fail("a digest line before the records")
                }
                guard line.hasPrefix("\""), line.hasSuffix("\":[") else {
                    throw fail("expected a section (\"places\":[ …), found \(EscapedText.displayForm(of: line, limit: 40))")
                }
                position = .section(String(line.dropFirst().dropLast(3)))
            case .section(let section):
                if bytes.elementsEqual("],".utf8) {
                    position = section == "records" && (header?.version ?? 0) >= 3 ? .digest : .between
                    return
                }
                if bytes.elementsEqual("]}".utf8) {
                    guard section == "records" else { throw fail("the export ends before its records") }
                    guard (header?.version ?? 0) < 3 else {
                        throw fail("the export ends without its digest line: it was cut short (and closed again)")
                    }
                    position = .end
                    return
                }
                var element = bytes
                if element.last == UInt8(ascii: ",") { element = element.dropLast() }
                let node = try value(element)
                counted[section, default: 0] += 1
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
            case .digest:
                guard let expected = CollectionBackup.digest(inLine: text()) else {
                    throw fail("expected the digest line after the records, found \(EscapedText.displayForm(of: text(), limit: 40))")
                }
                guard digest.finish() == expected else {
                    throw fail("the export's lines are not the ones it was written with (its SHA-256 differs): it was changed or damaged")
                }
                position = .end
            case .end:
                throw fail("text after the end of the export")
            }
        }

        try splitter.feed(prefix, take)
        while true {
            guard !stop.isSet else { throw Failure.interrupted }
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
        if let counts = header?.counts {
            for (section, count) in counts.sorted(by: { $0.key < $1.key }) where counted[section, default: 0] != count {
                throw Failure.line(
                    name: name, line: splitter.lineCount,
                    reason: "the export's header counts \(count) in \(section), and the file holds \(counted[section, default: 0]): lines are missing")
            }
        }
        do {
            outcome.linksWithoutRecord = try writer.checkReferences(strictLinks: (header?.version ?? 0) >= 3)
        } catch let error as CollectionBackup.ReadError {
            throw Failure.line(name: name, line: splitter.lineCount, reason: error.description)
        }
        return outcome
    }
}
