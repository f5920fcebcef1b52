import CExpat
import CratesCore
import Foundation

/// Reads `<release>` elements with expat as their bytes come, keeping only what
/// `DumpRelease` holds: elements and attributes are found by name, never by position, so the
/// dumps of every year read alike (`<images>` or not, `status="Accepted"` or none, empty
/// elements written or left out, `<series>`, `sub_tracks` in the tracklist).
///
/// A release expat refuses (a control character, an invalid token) is skipped: the parser
/// starts again after its `</release>` and the rest of the chunk is read.
final class ReleaseElementParser {
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
            Unmanaged<ReleaseElementParser>.fromOpaque(data)._withUnsafeGuaranteedRef { $0.start(name, attributes) }
        }, { data, name in
            guard let data, let name else { return }
            Unmanaged<ReleaseElementParser>.fromOpaque(data)._withUnsafeGuaranteedRef { $0.end(name) }
        })
        XML_SetCharacterDataHandler(parser) { data, bytes, length in
            guard let data, let bytes, length > 0 else { return }
            Unmanaged<ReleaseElementParser>.fromOpaque(data)._withUnsafeGuaranteedRef { me in
                guard me.capture != .none else { return }
                bytes.withMemoryRebound(to: UInt8.self, capacity: Int(length)) { pointer in
                    me.text.append(contentsOf: UnsafeBufferPointer(start: pointer, count: Int(length)))
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
        var position = 0
        let bytes = chunk.bytes
        while position < bytes.count || chunk.isLast {
            let status = bytes.withUnsafeBufferPointer { buffer in
                let base = buffer.baseAddress.map { UnsafeRawPointer($0 + position).assumingMemoryBound(to: CChar.self) }
                return XML_Parse(parser, base, Int32(buffer.count - position), chunk.isLast ? 1 : 0)
            }
            if status != XML_STATUS_ERROR { break }
            // Where expat stopped, in this chunk and in the dump.
            let streamIndex = Int64(XML_GetCurrentByteIndex(parser)) - Int64(syntheticPrefix)
            let local = Int(streamBase + streamIndex - chunk.strippedOffset)
            let errorOffset = DumpInput.originalOffset(max(0, local), in: chunk)
            let reason = XML_ErrorString(XML_GetErrorCode(parser)).map { String(cString: $0) } ?? "not XML"
            guard let resume = DumpInput.firstEndTag(in: bytes, from: max(position, local)) else {
                // Nothing but the end of the file after it: the closing tag, or a release cut
                // short (the last chunk holds what follows the last `</release>`).
                if chunk.isLast, inRelease || Self.holdsRelease(bytes, from: 0) {
                    output.truncatedAt = errorOffset
                }
                restart(at: chunk.strippedOffset + Int64(bytes.count))
                break
            }
            output.skipped.append(DumpSkip(releaseID: inRelease ? current.id : nil, offset: errorOffset, reason: reason))
            position = resume
            restart(at: chunk.strippedOffset + Int64(resume))
        }
        return output.truncatedAt
    }

    private static func holdsRelease(_ bytes: [UInt8], from: Int) -> Bool {
        let needle = Array("<release".utf8)
        guard bytes.count - from >= needle.count else { return false }
        for index in from...(bytes.count - needle.count) where bytes[index] == needle[0] {
            if Array(bytes[index..<(index + needle.count)]) == needle { return true }
        }
        return false
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
        switch depth {
        case 2:
            guard Self.named(name, "release") else { return }
            current = DumpRelease(id: 0)
            inRelease = true
            Self.eachAttribute(attributes) { key, value in
                if Self.named(key, "id") {
                    current.id = Self.integer(value) ?? 0
                } else if Self.named(key, "status") {
                    current.status = String(cString: value)
                }
            }
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
                        label.name = String(cString: value)
                    } else if Self.named(key, "catno") {
                        label.catno = String(cString: value)
                    } else if Self.named(key, "id") {
                        label.id = Self.integer(value) ?? 0
                    }
                }
                current.labels.append(label)
            case .formats where Self.named(name, "format"):
                format = DumpRelease.Format(name: "")
                inFormat = true
                Self.eachAttribute(attributes) { key, value in
                    if Self.named(key, "name") {
                        format.name = String(cString: value)
                    } else if Self.named(key, "qty") {
                        format.quantity = String(cString: value)
                    } else if Self.named(key, "text") {
                        format.text = String(cString: value)
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
                        value = String(cString: text)
                    }
                }
                if isBarcode, let value { current.barcodes.append(value) }
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
        if capture != .none { finishCapture() }
        switch depth {
        case 2:
            guard inRelease else { return }
            inRelease = false
            // Moved out, not copied (a copy retains every string and array it holds).
            var release = DumpRelease(id: 0)
            swap(&release, &current)
            if release.isListed {
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
                current.artists.append(finished)
                inArtist = false
            }
            if inFormat {
                var finished = DumpRelease.Format(name: "")
                swap(&finished, &format)
                current.formats.append(finished)
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
        let value = String(decoding: text, as: UTF8.self)
        switch capture {
        case .none, .masterID: break
        case .title: current.title = value
        case .country: current.country = value.isEmpty ? nil : value
        case .released: current.released = value.isEmpty ? nil : value
        case .artistName where inArtist: artist.name = value
        case .artistJoin where inArtist: artist.join = value
        case .artistName, .artistJoin: break
        case .genre: current.genres.append(value)
        case .style: current.styles.append(value)
        case .description where inFormat: format.descriptions.append(value)
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
