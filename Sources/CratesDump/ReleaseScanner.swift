import CratesCore
import Foundation

/// Reads `<release>` elements from the dump's stripped bytes (`ElementStripper`), keeping only
/// what `DumpRelease` holds: elements and attributes are found by name, never by position, so
/// the dumps of every year read alike (`<images>` or not, `status="Accepted"` or none, empty
/// elements written or left out, `<series>`, `sub_tracks` in the tracklist).
///
/// A scanner of its own rather than a general XML parser: what is left after the strip is a
/// few hundred bytes a release of a handful of elements, and expat's callbacks, the copy it
/// makes of its input and the strings made from them were the build's longest thread. It
/// checks what a conforming parser checks of those bytes (tags closed in order, characters XML
/// allows, UTF-8, attributes written once, entity and character references), and declares no
/// entities but XML's five: a DOCTYPE is stepped over and an entity of its own refused, so no
/// dump can expand one (`ScannerDifferentialTests` hold it to expat, release by release).
///
/// A release that is not well-formed (a control character, a `<` that begins no tag) is
/// skipped and named, and the scan goes on at the next `<release`. So is a release left open
/// (its bytes cut short, the next release following: the next `<release` inside it ends it),
/// and one whose id is no release number (named by where it begins). Every text kept is cut at
/// `DumpRelease.fieldLimit` bytes, every list at `listLimit`.
final class ReleaseScanner {
    /// What a chunk gave.
    struct Output {
        var releases: [DumpRelease] = []
        var skipped: [DumpSkip] = []
        /// Releases whose status is not Accepted (older dumps list drafts and deleted ones).
        var unlisted = 0
        /// Set when the file ends inside a release.
        var truncatedAt: Int64?
    }

    /// Why a release cannot be read, and where in the chunk.
    struct Fault: Error {
        var position: Int
        var reason: String
        /// A `<release` began inside the release (left open) at `position`.
        var leftOpen = false
        /// The chunk ended inside the release.
        var endOfInput = false
    }

    private enum Section { case none, artists, labels, formats, genres, styles, identifiers, other }
    private enum Capture { case none, title, country, released, masterID, artistName, artistJoin, genre, style, description }

    // The state below is the scanner's thread's alone (one thread drives a scanner), so the
    // runtime's check of each access to it (`@exclusivity(unchecked)`: a thread-local access
    // set, entered and left for every byte appended) guards nothing: it was a fifth of the
    // scanner's time.
    /// Whether the document's element is `<releases>` (nil until it begins): a dump with none
    /// in it holds no release, where another file is no releases dump.
    private(set) var rootIsReleases: Bool?
    @exclusivity(unchecked) private var output = Output()

    // The release being read. Plain values with flags, not optionals: an optional struct is
    // copied whole (a retain of each of its strings and arrays) each time it is changed
    // through `?`.
    @exclusivity(unchecked) private var current = DumpRelease(id: 0)
    @exclusivity(unchecked) private var refusal: String?
    @exclusivity(unchecked) private var artist = DumpRelease.Artist(name: "")
    @exclusivity(unchecked) private var inArtist = false
    @exclusivity(unchecked) private var format = DumpRelease.Format(name: "")
    @exclusivity(unchecked) private var inFormat = false
    @exclusivity(unchecked) private var section = Section.none
    @exclusivity(unchecked) private var capture = Capture.none
    @exclusivity(unchecked) private var text: [UInt8] = []
    /// The open elements inside the release: where each name is in the chunk, and its length.
    @exclusivity(unchecked) private var open: [(start: Int, count: Int)] = []
    /// An attribute value decoded (entities, blanks), when one is read.
    @exclusivity(unchecked) private var value: [UInt8] = []
    /// The attributes of the tag being read, for one written twice.
    @exclusivity(unchecked) private var attributeNames: [(start: Int, count: Int)] = []

    init() {
        text.reserveCapacity(DumpRelease.fieldLimit + 8)
        value.reserveCapacity(256)
        open.reserveCapacity(16)
    }

    /// What the chunks scanned since the last `take()` gave, handed over whole (moved, not
    /// copied release by release).
    func take() -> Output {
        var taken = Output()
        swap(&taken, &output)
        return taken
    }

    /// Releases scanned since the last `take()`.
    var pendingReleases: Int { output.releases.count }

    /// Whether `take()` would return anything.
    var hasPending: Bool { !output.releases.isEmpty || !output.skipped.isEmpty || output.unlisted > 0 }

    /// Scans one chunk of whole releases, adding them to what `take()` returns. Returns where
    /// the file ended inside a release, if it did.
    func parse(_ chunk: DumpInput.Chunk) -> Int64? {
        output.skipped += chunk.skipped
        chunk.bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            scan(base, buffer.count, chunk)
        }
        return output.truncatedAt
    }

    // MARK: - Between releases

    private func scan(_ b: UnsafePointer<UInt8>, _ n: Int, _ chunk: DumpInput.Chunk) {
        let buffer = UnsafeBufferPointer(start: b, count: n)
        var i = 0
        while i < n {
            guard let found = memchr(b + i, 0x3C, n - i) else { break }
            i = UnsafeRawPointer(found) - UnsafeRawPointer(b)
            if ReleaseTags.isStart(in: buffer, at: i) {
                guard rootIsReleases == true else {
                    // A release as the document's element, or inside another's: no releases dump.
                    if rootIsReleases == nil { rootIsReleases = false }
                    i += 1
                    continue
                }
                i = release(b, n, at: i, chunk)
            } else if Self.matches(b, n, i, "</releases>") {
                i += 11
            } else if Self.matches(b, n, i, "<releases"), i + 9 < n, Self.isNameEnd(b[i + 9]) {
                if rootIsReleases == nil { rootIsReleases = true }
                i = Self.find(b, n, from: i, ">").map { $0 + 1 } ?? n
            } else if Self.matches(b, n, i, "<?") {
                i = Self.find(b, n, from: i + 2, "?>").map { $0 + 2 } ?? n
            } else if Self.matches(b, n, i, "<!--") {
                i = Self.find(b, n, from: i + 4, "-->").map { $0 + 3 } ?? n
            } else if Self.matches(b, n, i, "<!") {
                i = Self.declarationEnd(b, n, from: i + 2)
            } else if i + 1 < n, b[i + 1] == 0x3C, rootIsReleases == true {
                // A stray `<` before a tag: that tag is not well-formed, and a release it begins
                // is lost (as a conforming parser loses it), and named.
                if ReleaseTags.isStart(in: buffer, at: i + 1) {
                    output.skipped.append(DumpSkip(
                        releaseID: nil, offset: DumpInput.originalOffset(i + 1, in: chunk), reason: "not well-formed: a \"<\" that begins no tag"))
                }
                i = ReleaseTags.nextStart(in: buffer, from: i + 2) ?? n
            } else {
                // Another element: the first one is the document's, not <releases>; any other
                // is no release, and is stepped over to the next.
                if rootIsReleases == nil, i + 1 < n, b[i + 1] != 0x2F { rootIsReleases = false }
                i = ReleaseTags.nextStart(in: buffer, from: i + 1) ?? n
            }
        }
    }

    /// Reads the release whose `<release` is at `start`; returns where the scan goes on.
    private func release(_ b: UnsafePointer<UInt8>, _ n: Int, at start: Int, _ chunk: DumpInput.Chunk) -> Int {
        do throws(Fault) {
            let next = try readRelease(b, n, at: start)
            if let refusal {
                output.skipped.append(DumpSkip(releaseID: nil, offset: DumpInput.originalOffset(start, in: chunk), reason: refusal))
                self.refusal = nil
            }
            return next
        } catch {
            let inRelease = current.id != 0 || refusal != nil
            let id = refusal == nil && current.id != 0 ? current.id : nil
            let buffer = UnsafeBufferPointer(start: b, count: n)
            if error.leftOpen {
                output.skipped.append(DumpSkip(
                    releaseID: id, offset: DumpInput.originalOffset(start, in: chunk), reason: "it is not closed before the next release begins"))
                return error.position
            }
            // A fault in the start tag is named by where the release begins.
            let offset = DumpInput.originalOffset(inRelease ? error.position : start, in: chunk)
            let skip = DumpSkip(releaseID: id, offset: offset, reason: error.reason)
            if error.endOfInput {
                // The chunk ends inside the release: the last one holds what follows the last
                // `</release>`, so the file ends inside it (cut short); else it is this release's.
                if chunk.isLast { output.truncatedAt = offset } else { output.skipped.append(skip) }
                return n
            }
            output.skipped.append(skip)
            // The scan goes on at the next `<release`: the one at the fault itself when it
            // begins there inside this release's content (this one was cut inside a value,
            // the next one following).
            let from = inRelease && ReleaseTags.isStart(in: buffer, at: error.position) ? error.position : error.position + 1
            return ReleaseTags.nextStart(in: buffer, from: from) ?? n
        }
    }

    // MARK: - A release

    private func readRelease(_ b: UnsafePointer<UInt8>, _ n: Int, at start: Int) throws(Fault) -> Int {
        current = DumpRelease(id: 0)
        refusal = nil
        inArtist = false
        inFormat = false
        section = .none
        capture = .none
        open.removeAll(keepingCapacity: true)
        // The start tag: its id and status.
        var idText: [UInt8]?
        var i = start + 8
        let selfClosing = try attributes(b, n, &i) { name, length in
            if Self.named(b + name, length, "id") { return .id }
            if Self.named(b + name, length, "status") { return .status }
            return .ignored
        } read: { which, value in
            switch which {
            case .id: idText = value
            case .status: current.status = Self.string(value)
            default: break
            }
        }
        if let idText, let number = Self.releaseID(idText) {
            current.id = number
        } else {
            refusal = idText.map { "its id \"\(Self.clipped($0))\" is not a release id" } ?? "it has no id"
        }
        if !selfClosing {
            i = try content(b, n, from: i)
        }
        // Moved out, not copied (a copy retains every string and array it holds). A release
        // refused for its id is left to the caller to name.
        var release = DumpRelease(id: 0)
        swap(&release, &current)
        guard refusal == nil else { return i }
        if release.isListed {
            output.releases.append(release)
        } else {
            output.unlisted += 1
        }
        return i
    }

    /// The release's content, up to and past its `</release>`.
    private func content(_ b: UnsafePointer<UInt8>, _ n: Int, from: Int) throws(Fault) -> Int {
        var i = from
        while true {
            // Text up to the next `<`.
            let lt = memchr(b + i, 0x3C, n - i).map { UnsafeRawPointer($0) - UnsafeRawPointer(b) } ?? n
            if lt > i { try characters(b, i, lt, keep: capture != .none) }
            guard lt < n - 1 else { throw Fault(position: n, reason: "it is cut short", endOfInput: true) }
            i = lt
            let next = b[i + 1]
            if next == 0x2F {
                // An end tag.
                let nameStart = i + 2
                var j = nameStart
                while j < n, !Self.isNameEnd(b[j]) { j += 1 }
                let length = j - nameStart
                // The name of the element it closes was checked at its start tag.
                let closesOpen = open.last.map { $0.count == length && memcmp(b + $0.start, b + nameStart, length) == 0 } ?? false
                if !closesOpen { try Self.checkName(b, nameStart, j) }
                while j < n, Self.isBlank(b[j]) { j += 1 }
                guard j < n else { throw Fault(position: n, reason: "it is cut short", endOfInput: true) }
                guard b[j] == 0x3E, length > 0 else { throw Fault(position: i, reason: "not well-formed: an end tag that does not end") }
                if capture != .none { finishCapture() }
                guard !open.isEmpty else {
                    guard Self.named(b + nameStart, length, "release") else {
                        let reason = Self.named(b + nameStart, length, "releases")
                            ? "it is not closed before the dump's end" : "not well-formed: an end tag that closes no element"
                        throw Fault(position: i, reason: reason)
                    }
                    return j + 1
                }
                guard closesOpen else {
                    throw Fault(position: i, reason: "not well-formed: an end tag that does not match its start tag")
                }
                end()
                i = j + 1
            } else if next == 0x21 {
                if Self.matches(b, n, i, "<!--") {
                    guard let end = Self.find(b, n, from: i + 4, "-->") else { throw Fault(position: n, reason: "it is cut short", endOfInput: true) }
                    i = end + 3
                } else if Self.matches(b, n, i, "<![CDATA[") {
                    guard let end = Self.find(b, n, from: i + 9, "]]>") else { throw Fault(position: n, reason: "it is cut short", endOfInput: true) }
                    try characters(b, i + 9, end, keep: capture != .none, markup: false)
                    i = end + 3
                } else {
                    throw Fault(position: i, reason: "not well-formed: a declaration inside a release")
                }
            } else if next == 0x3F {
                guard let end = Self.find(b, n, from: i + 2, "?>") else { throw Fault(position: n, reason: "it is cut short", endOfInput: true) }
                i = end + 2
            } else {
                // A start tag.
                let nameStart = i + 1
                var j = nameStart
                while j < n, !Self.isNameEnd(b[j]) { j += 1 }
                let length = j - nameStart
                guard length > 0, Self.isNameStart(b[nameStart]) else {
                    throw Fault(position: i, reason: "not well-formed: a \"<\" that begins no tag")
                }
                try Self.checkName(b, nameStart, j)
                if length == 7, Self.named(b + nameStart, length, "release") {
                    // No element of a release is a release: the one before was left open.
                    throw Fault(position: i, reason: "", leftOpen: true)
                }
                guard open.count < 64 else { throw Fault(position: i, reason: "not well-formed: elements nested too deep") }
                open.append((nameStart, length))
                let depth = open.count + 2
                j = nameStart + length
                let selfClosing = try start(b, n, &j, depth: depth, name: nameStart, length: length)
                if selfClosing {
                    if capture != .none { finishCapture() }
                    end()
                }
                i = j
            }
        }
    }

    // MARK: - Elements

    /// The attributes a start tag's handler reads.
    private enum Attribute { case ignored, id, status, labelName, catno, labelID, formatName, quantity, formatText, type, value, isMain }

    /// Reads a start tag after its name (`i` past it), by where it is; returns whether it was
    /// self-closing (`<x/>`).
    private func start(_ b: UnsafePointer<UInt8>, _ n: Int, _ i: inout Int, depth: Int, name: Int, length: Int) throws(Fault) -> Bool {
        let tag = b + name
        switch depth {
        case 3:
            section = .none
            var kind = Capture.none
            switch tag[0] {
            case 0x74 where Self.named(tag, length, "title"): kind = .title
            case 0x63 where Self.named(tag, length, "country"): kind = .country
            case 0x72 where Self.named(tag, length, "released"): kind = .released
            case 0x6D where Self.named(tag, length, "master_id"):
                let closing = try attributes(b, n, &i) { key, count in
                    Self.named(b + key, count, "is_main_release") ? .isMain : .ignored
                } read: { _, value in
                    current.isMainRelease = Self.equals(value, "true")
                }
                begin(.masterID)
                return closing
            case 0x61 where Self.named(tag, length, "artists"): section = .artists
            case 0x6C where Self.named(tag, length, "labels"): section = .labels
            case 0x66 where Self.named(tag, length, "formats"): section = .formats
            case 0x67 where Self.named(tag, length, "genres"): section = .genres
            case 0x73 where Self.named(tag, length, "styles"): section = .styles
            case 0x69 where Self.named(tag, length, "identifiers"): section = .identifiers
            default: section = .other
            }
            let closing = try attributes(b, n, &i)
            if kind != .none { begin(kind) }
            return closing
        case 4:
            switch section {
            case .artists where Self.named(tag, length, "artist"):
                artist = DumpRelease.Artist(name: "")
                inArtist = true
            case .labels where Self.named(tag, length, "label"):
                var label = DumpRelease.Label(name: "", catno: "")
                let closing = try attributes(b, n, &i) { key, count in
                    if Self.named(b + key, count, "name") { return .labelName }
                    if Self.named(b + key, count, "catno") { return .catno }
                    if Self.named(b + key, count, "id") { return .labelID }
                    return .ignored
                } read: { which, value in
                    switch which {
                    case .labelName: label.name = Self.string(value)
                    case .catno: label.catno = Self.string(value)
                    case .labelID: label.id = Self.labelID(value)
                    default: break
                    }
                }
                if current.labels.count < DumpRelease.listLimit { current.labels.append(label) }
                return closing
            case .formats where Self.named(tag, length, "format"):
                format = DumpRelease.Format(name: "")
                inFormat = true
                return try attributes(b, n, &i) { key, count in
                    if Self.named(b + key, count, "name") { return .formatName }
                    if Self.named(b + key, count, "qty") { return .quantity }
                    if Self.named(b + key, count, "text") { return .formatText }
                    return .ignored
                } read: { which, value in
                    switch which {
                    case .formatName: format.name = Self.string(value)
                    case .quantity: format.quantity = Self.string(value)
                    case .formatText: format.text = Self.string(value)
                    default: break
                    }
                }
            case .genres where Self.named(tag, length, "genre"):
                let closing = try attributes(b, n, &i)
                begin(.genre)
                return closing
            case .styles where Self.named(tag, length, "style"):
                let closing = try attributes(b, n, &i)
                begin(.style)
                return closing
            case .identifiers where Self.named(tag, length, "identifier"):
                var isBarcode = false
                var barcode: String?
                let closing = try attributes(b, n, &i) { key, count in
                    if Self.named(b + key, count, "type") { return .type }
                    if Self.named(b + key, count, "value") { return .value }
                    return .ignored
                } read: { which, value in
                    switch which {
                    case .type: isBarcode = Self.equals(value, "Barcode")
                    case .value: barcode = Self.string(value)
                    default: break
                    }
                }
                if isBarcode, let barcode, current.barcodes.count < DumpRelease.listLimit { current.barcodes.append(barcode) }
                return closing
            default:
                break
            }
        case 5:
            if inArtist {
                if Self.named(tag, length, "name") {
                    let closing = try attributes(b, n, &i)
                    begin(.artistName)
                    return closing
                }
                if Self.named(tag, length, "join") {
                    let closing = try attributes(b, n, &i)
                    begin(.artistJoin)
                    return closing
                }
            }
        case 6:
            if inFormat, Self.named(tag, length, "description") {
                let closing = try attributes(b, n, &i)
                begin(.description)
                return closing
            }
        default:
            break
        }
        return try attributes(b, n, &i)
    }

    /// An element inside the release ends (its name already checked against its start).
    private func end() {
        let depth = open.count + 2
        open.removeLast()
        switch depth {
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

    // MARK: - Tags and characters

    /// Reads a start tag's attributes from `i` (just past its name) to past its `>`, checking
    /// them; `which` says which to decode, `read` takes each decoded. Returns whether the tag
    /// was self-closing.
    private func attributes(
        _ b: UnsafePointer<UInt8>, _ n: Int, _ i: inout Int,
        which: (Int, Int) -> Attribute = { _, _ in .ignored }, read: (Attribute, [UInt8]) -> Void = { _, _ in }
    ) throws(Fault) -> Bool {
        attributeNames.removeAll(keepingCapacity: true)
        while true {
            let before = i
            while i < n, Self.isBlank(b[i]) { i += 1 }
            guard i < n else { throw Fault(position: n, reason: "it is cut short", endOfInput: true) }
            if b[i] == 0x3E {
                i += 1
                return false
            }
            if b[i] == 0x2F {
                guard i + 1 < n else { throw Fault(position: n, reason: "it is cut short", endOfInput: true) }
                guard b[i + 1] == 0x3E else { throw Fault(position: i, reason: "not well-formed: a tag that does not end") }
                i += 2
                return true
            }
            // An attribute: a blank before it, a name, `=`, a quoted value.
            guard i > before, Self.isNameStart(b[i]) else { throw Fault(position: i, reason: "not well-formed: a tag that does not end") }
            let name = i
            while i < n, !Self.isNameEnd(b[i]), b[i] != 0x3D { i += 1 }
            let length = i - name
            try Self.checkName(b, name, i)
            for (other, count) in attributeNames where count == length && memcmp(b + other, b + name, length) == 0 {
                throw Fault(position: name, reason: "not well-formed: an attribute written twice")
            }
            attributeNames.append((name, length))
            while i < n, Self.isBlank(b[i]) { i += 1 }
            guard i < n else { throw Fault(position: n, reason: "it is cut short", endOfInput: true) }
            guard b[i] == 0x3D else { throw Fault(position: i, reason: "not well-formed: an attribute without a value") }
            i += 1
            while i < n, Self.isBlank(b[i]) { i += 1 }
            guard i < n else { throw Fault(position: n, reason: "it is cut short", endOfInput: true) }
            let quote = b[i]
            guard quote == 0x22 || quote == 0x27 else { throw Fault(position: i, reason: "not well-formed: a value without quotes") }
            i += 1
            guard let close = memchr(b + i, Int32(quote), n - i).map({ UnsafeRawPointer($0) - UnsafeRawPointer(b) }) else {
                // No end to the value: the fault is the first `<` it may not hold, if any.
                if let lt = memchr(b + i, 0x3C, n - i) {
                    throw Fault(position: UnsafeRawPointer(lt) - UnsafeRawPointer(b), reason: "not well-formed: a \"<\" in a value")
                }
                throw Fault(position: n, reason: "it is cut short", endOfInput: true)
            }
            let attribute = which(name, length)
            if attribute == .ignored {
                try characters(b, i, close, keep: false, inValue: true)
            } else {
                swap(&text, &value)
                text.removeAll(keepingCapacity: true)
                try characters(b, i, close, keep: true, inValue: true)
                swap(&text, &value)
                read(attribute, value)
            }
            i = close + 1
        }
    }

    /// Checks the characters of `b[from..<to]` (text, or an attribute's value), appending them
    /// decoded to `text` when `keep` (up to a character past `DumpRelease.fieldLimit`).
    private func characters(
        _ b: UnsafePointer<UInt8>, _ from: Int, _ to: Int, keep: Bool, inValue: Bool = false, markup: Bool = true
    ) throws(Fault) {
        var i = from
        var run = from
        @inline(__always) func flush(_ end: Int) {
            if keep, end > run {
                let room = DumpRelease.fieldLimit + 4 - text.count
                if room > 0 { text.append(contentsOf: UnsafeBufferPointer(start: b + run, count: min(end - run, room))) }
            }
        }
        @inline(__always) func append(_ byte: UInt8) {
            if keep, text.count < DumpRelease.fieldLimit + 4 { text.append(byte) }
        }
        while i < to {
            let byte = b[i]
            if byte >= 0x20, byte < 0x80, byte != 0x26, byte != 0x3C {
                i += 1
                continue
            }
            switch byte {
            case 0x26 where markup:
                flush(i)
                let (scalar, length) = try reference(b, i, to)
                if keep { appendScalar(scalar) }
                i += length
                run = i
            case 0x3C:
                // Only in a value or CDATA can a `<` come here; a value may not hold one.
                if inValue { throw Fault(position: i, reason: "not well-formed: a \"<\" in a value") }
                i += 1
            case 0x09, 0x0A, 0x0D:
                // Line ends are one LF (CR LF, a lone CR); in a value, every blank is a space.
                flush(i)
                if byte == 0x0D, i + 1 < to, b[i + 1] == 0x0A { i += 1 }
                append(inValue ? 0x20 : (byte == 0x09 ? 0x09 : 0x0A))
                i += 1
                run = i
            case 0x80...:
                i += try Self.utf8Length(b, i, to)
            case 0x26:
                i += 1
            default:
                throw Fault(position: i, reason: "not well-formed: a control character")
            }
        }
        flush(to)
    }

    /// The character a reference at `at` (`&amp;`, `&#13;`, `&#x201C;`) stands for, and its
    /// length: XML's five entities and character numbers, nothing else.
    private func reference(_ b: UnsafePointer<UInt8>, _ at: Int, _ to: Int) throws(Fault) -> (UInt32, Int) {
        guard let semicolon = memchr(b + at, 0x3B, min(to - at, 12)).map({ UnsafeRawPointer($0) - UnsafeRawPointer(b) }) else {
            throw Fault(position: at, reason: "not well-formed: a \"&\" that begins no reference")
        }
        let body = UnsafeBufferPointer(start: b + at + 1, count: semicolon - at - 1)
        let length = semicolon - at + 1
        if body.first == 0x23 {
            var value: UInt32 = 0
            let hex = body.count > 1 && body[1] == 0x78
            let digits = body.dropFirst(hex ? 2 : 1)
            guard !digits.isEmpty, digits.count <= 8 else { throw Fault(position: at, reason: "not well-formed: a character number that is none") }
            for digit in digits {
                let d: UInt32
                switch digit {
                case 0x30...0x39: d = UInt32(digit - 0x30)
                case 0x61...0x66 where hex: d = UInt32(digit - 0x61 + 10)
                case 0x41...0x46 where hex: d = UInt32(digit - 0x41 + 10)
                default: throw Fault(position: at, reason: "not well-formed: a character number that is none")
                }
                value = value * (hex ? 16 : 10) + d
            }
            guard Self.isXMLCharacter(value) else { throw Fault(position: at, reason: "not well-formed: a character number XML does not allow") }
            return (value, length)
        }
        switch body.count {
        case 2 where body[0] == 0x6C && body[1] == 0x74: return (0x3C, length)
        case 2 where body[0] == 0x67 && body[1] == 0x74: return (0x3E, length)
        case 3 where body[0] == 0x61 && body[1] == 0x6D && body[2] == 0x70: return (0x26, length)
        case 4 where Self.equals(Array(body), "quot"): return (0x22, length)
        case 4 where Self.equals(Array(body), "apos"): return (0x27, length)
        default: throw Fault(position: at, reason: "not well-formed: an entity XML does not define")
        }
    }

    private func appendScalar(_ scalar: UInt32) {
        guard text.count < DumpRelease.fieldLimit + 4 else { return }
        switch scalar {
        case 0..<0x80:
            text.append(UInt8(scalar))
        case 0x80..<0x800:
            text.append(UInt8(0xC0 | (scalar >> 6)))
            text.append(UInt8(0x80 | (scalar & 0x3F)))
        case 0x800..<0x10000:
            text.append(UInt8(0xE0 | (scalar >> 12)))
            text.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            text.append(UInt8(0x80 | (scalar & 0x3F)))
        default:
            text.append(UInt8(0xF0 | (scalar >> 18)))
            text.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
            text.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            text.append(UInt8(0x80 | (scalar & 0x3F)))
        }
    }

    /// The length of the UTF-8 character at `i`, which XML allows; throws otherwise.
    private static func utf8Length(_ b: UnsafePointer<UInt8>, _ i: Int, _ to: Int) throws(Fault) -> Int {
        let lead = b[i]
        @inline(__always) func continuation(_ k: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> Bool {
            i + k < to && b[i + k] >= low && b[i + k] <= high
        }
        switch lead {
        case 0xC2...0xDF:
            if continuation(1) { return 2 }
        case 0xE0:
            if continuation(1, 0xA0), continuation(2) { return 3 }
        case 0xE1...0xEC, 0xEE:
            if continuation(1), continuation(2) { return 3 }
        case 0xED:
            // Not a surrogate.
            if continuation(1, 0x80, 0x9F), continuation(2) { return 3 }
        case 0xEF:
            // Not U+FFFE or U+FFFF.
            if continuation(1), continuation(2), !(b[i + 1] == 0xBF && b[i + 2] >= 0xBE) { return 3 }
        case 0xF0:
            if continuation(1, 0x90), continuation(2), continuation(3) { return 4 }
        case 0xF1...0xF3:
            if continuation(1), continuation(2), continuation(3) { return 4 }
        case 0xF4:
            if continuation(1, 0x80, 0x8F), continuation(2), continuation(3) { return 4 }
        default:
            break
        }
        throw Fault(position: i, reason: "not well-formed: bytes that are not UTF-8")
    }

    private static func isXMLCharacter(_ value: UInt32) -> Bool {
        switch value {
        case 0x09, 0x0A, 0x0D, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    // MARK: - Bytes

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Whether `byte` ends a name: a blank, `>`, `/`, `=` (in a tag), or a `<` it may not hold.
    private static func isNameEnd(_ byte: UInt8) -> Bool {
        byte <= 0x20 || byte == 0x3E || byte == 0x2F || byte == 0x3D || byte == 0x3C
    }

    private static func isNameStart(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || byte == 0x5F || byte == 0x3A || byte >= 0x80
    }

    /// Checks that `b[from..<to]` is a name: letters, digits, `.`, `-`, `_`, `:` (not a digit,
    /// `.` or `-` first) and characters beyond ASCII in UTF-8.
    private static func checkName(_ b: UnsafePointer<UInt8>, _ from: Int, _ to: Int) throws(Fault) {
        var i = from
        while i < to {
            let byte = b[i]
            if byte >= 0x80 {
                i += try utf8Length(b, i, to)
                continue
            }
            let letter = (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || byte == 0x5F || byte == 0x3A
            let other = (byte >= 0x30 && byte <= 0x39) || byte == 0x2E || byte == 0x2D
            guard letter || (other && i > from) else { throw Fault(position: i, reason: "not well-formed: a name with a character names may not hold") }
            i += 1
        }
    }

    private static func named(_ name: UnsafePointer<UInt8>, _ length: Int, _ expected: StaticString) -> Bool {
        length == expected.utf8CodeUnitCount && memcmp(name, expected.utf8Start, length) == 0
    }

    private static func equals(_ bytes: [UInt8], _ expected: StaticString) -> Bool {
        guard bytes.count == expected.utf8CodeUnitCount else { return false }
        for index in 0..<bytes.count where bytes[index] != expected.utf8Start[index] { return false }
        return true
    }

    private static func matches(_ b: UnsafePointer<UInt8>, _ n: Int, _ i: Int, _ expected: StaticString) -> Bool {
        i + expected.utf8CodeUnitCount <= n && memcmp(b + i, expected.utf8Start, expected.utf8CodeUnitCount) == 0
    }

    /// Where `expected` next begins at or after `from`.
    private static func find(_ b: UnsafePointer<UInt8>, _ n: Int, from: Int, _ expected: StaticString) -> Int? {
        var i = from
        let first = expected.utf8Start[0]
        while i < n, let found = memchr(b + i, Int32(first), n - i) {
            i = UnsafeRawPointer(found) - UnsafeRawPointer(b)
            if matches(b, n, i, expected) { return i }
            i += 1
        }
        return nil
    }

    /// Past a declaration (`<!DOCTYPE …>`, whose internal subset in `[…]` may hold `>`).
    private static func declarationEnd(_ b: UnsafePointer<UInt8>, _ n: Int, from: Int) -> Int {
        var i = from
        var inSubset = false
        var quote: UInt8 = 0
        while i < n {
            let byte = b[i]
            if quote != 0 {
                if byte == quote { quote = 0 }
            } else if byte == 0x22 || byte == 0x27 {
                quote = byte
            } else if byte == 0x5B {
                inSubset = true
            } else if byte == 0x5D {
                inSubset = false
            } else if byte == 0x3E, !inSubset {
                return i + 1
            }
            i += 1
        }
        return n
    }

    // MARK: - Values

    /// A release's id: 1 to 18 decimal digits, nothing else (no sign, no blank); nil otherwise.
    private static func releaseID(_ bytes: [UInt8]) -> Int? {
        guard !bytes.isEmpty, bytes.count <= 18 else { return nil }
        var value = 0
        for byte in bytes {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value > 0 ? value : nil
    }

    /// A label's id as C's `strtol` reads it (blanks, a sign, digits, nothing after); 0 when
    /// it is none.
    private static func labelID(_ bytes: [UInt8]) -> Int {
        var index = 0
        while index < bytes.count, isBlank(bytes[index]) || bytes[index] == 0x0B || bytes[index] == 0x0C { index += 1 }
        var negative = false
        if index < bytes.count, bytes[index] == 0x2B || bytes[index] == 0x2D {
            negative = bytes[index] == 0x2D
            index += 1
        }
        guard index < bytes.count else { return 0 }
        var value = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard byte >= 0x30, byte <= 0x39 else { return 0 }
            let (times, overflowed) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowedSum) = times.addingReportingOverflow(Int(byte - 0x30))
            value = overflowed || overflowedSum ? Int.max : sum
            index += 1
        }
        return negative ? -value : value
    }

    /// A decimal number between optional blanks ("123", " 123\n"); nil otherwise.
    private static func integer(_ bytes: [UInt8]) -> Int? {
        var index = 0
        var end = bytes.count
        while index < end, isBlank(bytes[index]) { index += 1 }
        while end > index, isBlank(bytes[end - 1]) { end -= 1 }
        guard index < end, end - index <= 18 else { return nil }
        var value = 0
        for byte in bytes[index..<end] {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }

    /// `bytes` (valid UTF-8) as a string, cut at `DumpRelease.fieldLimit` bytes where a
    /// character begins.
    private static func string(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer { buffer in
            var count = buffer.count
            if count > DumpRelease.fieldLimit {
                count = DumpRelease.fieldLimit
                while count > 0, buffer[count] & 0xC0 == 0x80 { count -= 1 }
            }
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<count]), as: UTF8.self)
        }
    }

    /// An id as written, for a message: at most 24 characters, and no control character.
    private static func clipped(_ bytes: [UInt8]) -> String {
        let value = string(bytes)
        let shown = value.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }
        return String(String.UnicodeScalarView(shown.prefix(24))) + (shown.count > 24 ? "…" : "")
    }
}
