import CExpat
import CStringSearch
import CratesCore
import Foundation

@testable import CratesDump

/// The reference the dump's scanner (`ReleaseScanner`) is held to: the expat parser the build
/// used before it, kept here for `ScannerDifferentialTests`.
///
/// Reads `<release>` elements with expat as their bytes come, keeping only what
/// `DumpRelease` holds: elements and attributes are found by name, never by position, so the
/// dumps of every year read alike (`<images>` or not, `status="Accepted"` or none, empty
/// elements written or left out, `<series>`, `sub_tracks` in the tracklist).
///
/// A release expat refuses (a control character, an invalid token) is skipped: the parser
/// starts again at the next `<release` and the rest of the chunk is read. So is a release left
/// open (its bytes cut short, the next release following): the next `<release` inside it
/// ends it. A release whose id is no release number is skipped too, named by where it begins.
/// Every text kept is cut at `DumpRelease.fieldLimit` bytes, every list at `listLimit`.
final class ExpatReleaseParser {
    /// What a chunk gave.
    struct Output {
        var releases: [DumpRelease] = []
        var skipped: [DumpSkip] = []
        /// Releases whose status is not Accepted (older dumps list drafts and deleted ones).
        var unlisted = 0
        /// Set when the file ends inside a release.
        var truncatedAt: Int64?
    }

    private enum Section { case none, artists, labels, formats, genres, styles, identifiers, other }
    private enum Capture { case none, title, country, released, masterID, artistName, artistJoin, genre, style, description }

    private var parser: XML_Parser
    private var depth = 0
    private var section = Section.none
    private var capture = Capture.none
    private var text: [UInt8] = []
    // The release, artist and format being read, with flags saying whether one is: stored
    // as plain values, not optionals, since an optional struct is copied whole (a retain of
    // each of its strings and arrays) each time it is tested or changed through `?`.
    private var current = DumpRelease(id: 0)
    private var inRelease = false
    private var artist = DumpRelease.Artist(name: "")
    private var inArtist = false
    private var format = DumpRelease.Format(name: "")
    private var inFormat = false
    private var output = Output()
    /// Why the release being read is not kept (its id is no release number); nil when it is.
    private var refusal: String?
    /// Where the release being read begins in the dump.
    private var releaseOffset: Int64 = 0
    /// Set when a `<release` began inside the release being read: where it is in the stream,
    /// for the parse to go on from it (expat was stopped there).
    private var leftOpenAt: Int64?
    /// The chunk being parsed: for the offsets of what the handlers find.
    private var chunk = DumpInput.Chunk.empty
    /// Whether the document's element is `<releases>` (nil until it begins): a dump with none
    /// in it holds no release, where another file is no releases dump.
    private(set) var rootIsReleases: Bool?
    /// Where the stream this parser was given begins in the stripped stream
    /// (`DumpInput.Chunk.strippedOffset`), and the length of the synthetic `<releases>` fed
    /// before it after a restart.
    private var streamBase: Int64 = 0
    private var syntheticPrefix = 0

    private static let restartPrefix = Array("<releases>".utf8)

    init() {
        parser = XML_ParserCreate("UTF-8")
        configure()
    }

    deinit { XML_ParserFree(parser) }

    /// The handlers reach the parser through expat's user data without retaining it (it
    /// outlives its expat parser): a retain and a release per callback, millions of them,
    /// were a tenth of the parsing thread's time.
    private func configure() {
        XML_SetUserData(parser, Unmanaged.passUnretained(self).toOpaque())
        XML_SetElementHandler(parser, { data, name, attributes in
            guard let data, let name else { return }
            Unmanaged<ExpatReleaseParser>.fromOpaque(data)._withUnsafeGuaranteedRef { $0.start(name, attributes) }
        }, { data, name in
            guard let data, let name else { return }
            Unmanaged<ExpatReleaseParser>.fromOpaque(data)._withUnsafeGuaranteedRef { $0.end(name) }
        })
        XML_SetCharacterDataHandler(parser) { data, bytes, length in
            guard let data, let bytes, length > 0 else { return }
            Unmanaged<ExpatReleaseParser>.fromOpaque(data)._withUnsafeGuaranteedRef { me in
                guard me.capture != .none else { return }
                // Up to a character past the limit, for the cut to fall on a character's boundary.
                let room = DumpRelease.fieldLimit + 4 - me.text.count
                guard room > 0 else { return }
                bytes.withMemoryRebound(to: UInt8.self, capacity: Int(length)) { pointer in
                    me.text.append(contentsOf: UnsafeBufferPointer(start: pointer, count: min(Int(length), room)))
                }
            }
        }
    }

    /// What the chunks parsed since the last `take()` gave, handed over whole (moved, not
    /// copied release by release).
    func take() -> Output {
        var taken = Output()
        swap(&taken, &output)
        return taken
    }

    /// Releases parsed since the last `take()`.
    var pendingReleases: Int { output.releases.count }

    /// Whether `take()` would return anything.
    var hasPending: Bool { !output.releases.isEmpty || !output.skipped.isEmpty || output.unlisted > 0 }

    /// Parses one chunk of whole releases, adding them to what `take()` returns. Returns
    /// where the file ended inside a release, if it did.
    func parse(_ chunk: DumpInput.Chunk) -> Int64? {
        output.skipped += chunk.skipped
        self.chunk = chunk
        defer { self.chunk = .empty }
        var position = 0
        let bytes = chunk.bytes
        while position < bytes.count || chunk.isLast {
            let status = bytes.withUnsafeBufferPointer { buffer in
                let base = buffer.baseAddress.map { UnsafeRawPointer($0 + position).assumingMemoryBound(to: CChar.self) }
                return XML_Parse(parser, base, Int32(buffer.count - position), chunk.isLast ? 1 : 0)
            }
            if status != XML_STATUS_ERROR { break }
            if let leftOpenAt {
                // A release left open: skipped, and the one that began inside it read from its start.
                output.skipped.append(DumpSkip(
                    releaseID: refusal == nil ? current.id : nil, offset: releaseOffset,
                    reason: "it is not closed before the next release begins"))
                position = Int(leftOpenAt - chunk.strippedOffset)
                restart(at: leftOpenAt)
                continue
            }
            // Where expat stopped, in this chunk and in the dump.
            let local = max(0, Int(streamOffset(Int64(XML_GetCurrentByteIndex(parser))) - chunk.strippedOffset))
            let errorOffset = DumpInput.originalOffset(local, in: chunk)
            let reason = XML_ErrorString(XML_GetErrorCode(parser)).map { String(cString: $0) } ?? "not XML"
            // A release is lost when the fault is inside one, or in a release's start tag. The
            // parse goes on at the next `<release`: the one at the fault itself when it began
            // inside a release (that one was left open, cut inside a tag), else the one after.
            let atStart = bytes.withUnsafeBufferPointer { ReleaseTags.isStart(in: $0, at: local) }
            let lost = inRelease || atStart
            let skip = DumpSkip(releaseID: inRelease && refusal == nil ? current.id : nil, offset: errorOffset, reason: reason)
            let from = inRelease && atStart ? local : local + 1
            guard let resume = bytes.withUnsafeBufferPointer({ ReleaseTags.nextStart(in: $0, from: from) }) else {
                // Nothing after it but the end: the closing tag, or a release cut short (the last
                // chunk holds what follows the last `</release>`). A release left open before
                // `</releases>` is that release's fault; the file ending inside one, the file's.
                if lost {
                    if chunk.isLast, !Self.closesReleases(bytes, from: local) {
                        output.truncatedAt = errorOffset
                    } else {
                        output.skipped.append(skip)
                    }
                }
                restart(at: chunk.strippedOffset + Int64(bytes.count))
                break
            }
            if lost { output.skipped.append(skip) }
            position = resume
            restart(at: chunk.strippedOffset + Int64(resume))
        }
        return output.truncatedAt
    }

    /// Where `index`, a byte index of expat's, is in the stripped stream.
    private func streamOffset(_ index: Int64) -> Int64 {
        streamBase + index - Int64(syntheticPrefix)
    }

    /// Where in the dump the event expat is at (a start tag) begins.
    private func eventOffset() -> Int64 {
        let local = Int(streamOffset(Int64(XML_GetCurrentByteIndex(parser))) - chunk.strippedOffset)
        return DumpInput.originalOffset(max(0, local), in: chunk)
    }

    /// Whether `</releases>` comes after `from`: the document's end, written.
    private static func closesReleases(_ bytes: [UInt8], from: Int) -> Bool {
        let needle = Array("</releases>".utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, from < buffer.count else { return false }
            return needle.withUnsafeBytes { memmem(base + from, buffer.count - from, $0.baseAddress, $0.count) } != nil
        }
    }

    /// A fresh parser for the dump from `offset`, inside a synthetic `<releases>`.
    private func restart(at offset: Int64) {
        XML_ParserReset(parser, "UTF-8")
        configure()
        section = .none
        capture = .none
        inRelease = false
        inArtist = false
        inFormat = false
        refusal = nil
        leftOpenAt = nil
        streamBase = offset
        syntheticPrefix = Self.restartPrefix.count
        depth = 0
        Self.restartPrefix.withUnsafeBytes { buffer in
            _ = XML_Parse(parser, buffer.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(buffer.count), 0)
        }
    }

    // MARK: - Handlers

    private func start(_ name: UnsafePointer<CChar>, _ attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>?) {
        depth += 1
        guard leftOpenAt == nil else { return }
        switch depth {
        case 1:
            if syntheticPrefix == 0, rootIsReleases == nil { rootIsReleases = Self.named(name, "releases") }
        case 2:
            guard Self.named(name, "release") else { return }
            current = DumpRelease(id: 0)
            inRelease = true
            refusal = nil
            releaseOffset = eventOffset()
            var id: UnsafePointer<CChar>?
            Self.eachAttribute(attributes) { key, value in
                if Self.named(key, "id") {
                    id = value
                } else if Self.named(key, "status") {
                    current.status = Self.string(value)
                }
            }
            if let id, let number = Self.releaseID(id) {
                current.id = number
            } else {
                refusal = id.map { "its id \"\(Self.clipped($0))\" is not a release id" } ?? "it has no id"
            }
        case 3... where inRelease && Self.named(name, "release"):
            // No element of a release is a release: the one before was left open. Expat is
            // stopped here, and the parse goes on from this tag with a fresh parser.
            leftOpenAt = streamOffset(Int64(XML_GetCurrentByteIndex(parser)))
            XML_StopParser(parser, XML_FALSE)
            return
        case 3 where inRelease:
            section = .none
            switch name[0] {
            case 0x74 where Self.named(name, "title"): begin(.title)
            case 0x63 where Self.named(name, "country"): begin(.country)
            case 0x72 where Self.named(name, "released"): begin(.released)
            case 0x6D where Self.named(name, "master_id"):
                Self.eachAttribute(attributes) { key, value in
                    if Self.named(key, "is_main_release") { current.isMainRelease = Self.named(value, "true") }
                }
                begin(.masterID)
            case 0x61 where Self.named(name, "artists"): section = .artists
            case 0x6C where Self.named(name, "labels"): section = .labels
            case 0x66 where Self.named(name, "formats"): section = .formats
            case 0x67 where Self.named(name, "genres"): section = .genres
            case 0x73 where Self.named(name, "styles"): section = .styles
            case 0x69 where Self.named(name, "identifiers"): section = .identifiers
            default: section = .other
            }
        case 4:
            switch section {
            case .artists where Self.named(name, "artist"):
                artist = DumpRelease.Artist(name: "")
                inArtist = true
            case .labels where Self.named(name, "label"):
                var label = DumpRelease.Label(name: "", catno: "")
                Self.eachAttribute(attributes) { key, value in
                    if Self.named(key, "name") {
                        label.name = Self.string(value)
                    } else if Self.named(key, "catno") {
                        label.catno = Self.string(value)
                    } else if Self.named(key, "id") {
                        label.id = Self.integer(value) ?? 0
                    }
                }
                if current.labels.count < DumpRelease.listLimit { current.labels.append(label) }
            case .formats where Self.named(name, "format"):
                format = DumpRelease.Format(name: "")
                inFormat = true
                Self.eachAttribute(attributes) { key, value in
                    if Self.named(key, "name") {
                        format.name = Self.string(value)
                    } else if Self.named(key, "qty") {
                        format.quantity = Self.string(value)
                    } else if Self.named(key, "text") {
                        format.text = Self.string(value)
                    }
                }
            case .genres where Self.named(name, "genre"): begin(.genre)
            case .styles where Self.named(name, "style"): begin(.style)
            case .identifiers where Self.named(name, "identifier"):
                var isBarcode = false
                var value: String?
                Self.eachAttribute(attributes) { key, text in
                    if Self.named(key, "type") {
                        isBarcode = Self.named(text, "Barcode")
                    } else if Self.named(key, "value") {
                        value = Self.string(text)
                    }
                }
                if isBarcode, let value, current.barcodes.count < DumpRelease.listLimit { current.barcodes.append(value) }
            default: break
            }
        case 5:
            if inArtist {
                if Self.named(name, "name") {
                    begin(.artistName)
                } else if Self.named(name, "join") {
                    begin(.artistJoin)
                }
            }
        case 6:
            if inFormat, Self.named(name, "description") { begin(.description) }
        default:
            break
        }
    }

    private func end(_ name: UnsafePointer<CChar>) {
        defer { depth -= 1 }
        guard leftOpenAt == nil else { return }
        if capture != .none { finishCapture() }
        switch depth {
        case 2:
            guard inRelease else { return }
            inRelease = false
            // Moved out, not copied (a copy retains every string and array it holds).
            var release = DumpRelease(id: 0)
            swap(&release, &current)
            if let refusal {
                output.skipped.append(DumpSkip(releaseID: nil, offset: releaseOffset, reason: refusal))
                self.refusal = nil
            } else if release.isListed {
                output.releases.append(release)
            } else {
                output.unlisted += 1
            }
        case 3:
            section = .none
        case 4:
            if inArtist {
                var finished = DumpRelease.Artist(name: "")
                swap(&finished, &artist)
                if current.artists.count < DumpRelease.listLimit { current.artists.append(finished) }
                inArtist = false
            }
            if inFormat {
                var finished = DumpRelease.Format(name: "")
                swap(&finished, &format)
                if current.formats.count < DumpRelease.listLimit { current.formats.append(finished) }
                inFormat = false
            }
        default:
            break
        }
    }

    private func begin(_ what: Capture) {
        capture = what
        text.removeAll(keepingCapacity: true)
    }

    private func finishCapture() {
        if capture == .masterID {
            let id = Self.integer(text) ?? 0
            current.masterID = id > 0 ? id : nil
            capture = .none
            return
        }
        let value = Self.string(text)
        switch capture {
        case .none, .masterID: break
        case .title: current.title = value
        case .country: current.country = value.isEmpty ? nil : value
        case .released: current.released = value.isEmpty ? nil : value
        case .artistName where inArtist: artist.name = value
        case .artistJoin where inArtist: artist.join = value
        case .artistName, .artistJoin: break
        case .genre where current.genres.count < DumpRelease.listLimit: current.genres.append(value)
        case .style where current.styles.count < DumpRelease.listLimit: current.styles.append(value)
        case .genre, .style: break
        case .description where inFormat && format.descriptions.count < DumpRelease.listLimit: format.descriptions.append(value)
        case .description: break
        }
        capture = .none
    }

    /// A decimal number between optional blanks ("123", " 123\n"); nil otherwise.
    private static func integer(_ bytes: [UInt8]) -> Int? {
        var index = 0
        var end = bytes.count
        while index < end, Self.isBlank(bytes[index]) { index += 1 }
        while end > index, Self.isBlank(bytes[end - 1]) { end -= 1 }
        guard index < end, end - index <= 18 else { return nil }
        var value = 0
        for byte in bytes[index..<end] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    /// A release's id: 1 to 18 decimal digits, nothing else (no sign, no blank); nil otherwise.
    private static func releaseID(_ text: UnsafePointer<CChar>) -> Int? {
        var value = 0
        var index = 0
        while text[index] != 0 {
            let byte = UInt8(bitPattern: text[index])
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), index < 18 else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            index += 1
        }
        return value > 0 ? value : nil
    }

    /// An attribute's value, cut at `DumpRelease.fieldLimit` bytes.
    private static func string(_ text: UnsafePointer<CChar>) -> String {
        let length = strnlen(text, DumpRelease.fieldLimit + 4)
        return text.withMemoryRebound(to: UInt8.self, capacity: length) { string(UnsafeBufferPointer(start: $0, count: length)) }
    }

    private static func string(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer { string($0) }
    }

    /// `bytes` as a string, cut at `DumpRelease.fieldLimit` bytes where a character begins.
    private static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var count = bytes.count
        if count > DumpRelease.fieldLimit {
            count = DumpRelease.fieldLimit
            while count > 0, bytes[count] & 0xC0 == 0x80 { count -= 1 }
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[..<count]), as: UTF8.self)
    }

    /// An id as written, for a message: at most 24 characters, and no control character.
    private static func clipped(_ text: UnsafePointer<CChar>) -> String {
        let value = string(text)
        let shown = value.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }
        return String(String.UnicodeScalarView(shown.prefix(24))) + (shown.count > 24 ? "…" : "")
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    // MARK: - C strings

    private static func named(_ name: UnsafePointer<CChar>, _ expected: StaticString) -> Bool {
        strcmp(name, UnsafeRawPointer(expected.utf8Start).assumingMemoryBound(to: CChar.self)) == 0
    }

    private static func integer(_ text: UnsafePointer<CChar>) -> Int? {
        var end: UnsafeMutablePointer<CChar>?
        let value = strtol(text, &end, 10)
        guard let end, end != UnsafeMutablePointer(mutating: text), end.pointee == 0 else { return nil }
        return value
    }

    private static func eachAttribute(
        _ attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>?, _ body: (UnsafePointer<CChar>, UnsafePointer<CChar>) -> Void
    ) {
        guard let attributes else { return }
        var index = 0
        while let key = attributes[index], let value = attributes[index + 1] {
            body(key, value)
            index += 2
        }
    }
}
