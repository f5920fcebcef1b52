import CratesCore
import Foundation

/// Realistic Discogs releases dumps, made here: the 2025 format (no XML declaration, literal
/// UTF-8, CR written `&#13;`, no `<images>`, empty elements left out, identifiers with
/// `description=""`, `<series>`, `<master_id is_main_release>`, `released` in every form or
/// missing, `sub_tracks`, raw newlines in notes and video descriptions), with older-format
/// releases mixed in (`<images>`, `status="Accepted"`, empty elements, drafts and deleted
/// releases), barcodes as people typed them (digit groups, a trailing `&gt;`, Text and Scanned
/// forms, UPC-A beside its EAN-13, a wrong check digit, runout text), a label listed twice
/// with catalogue-number variants, and, on request (`faults`), a control character in one
/// release's notes (which the catalogue does not read), and a control character and an
/// invalid token where it does read, as dumps of 2011 and 2014 held.
///
/// Releases are of the real dump's size and make-up, since byte-bound work (inflating,
/// stripping) and release-bound work (parsing, writing) weigh differently: about 3.9 KB of
/// XML and 550 bytes of gzip a release (the 2025-2026 dumps: 3.7 KB and 547 bytes), most of
/// it the tracklist, credits, companies, notes and videos the catalogue strips, with names,
/// ids and video ids varied enough to compress as the real ones do.
///
/// Deterministic for a seed: each release comes with what a reader must make of it.
public struct DumpGenerator {
    /// One `<release>` element and what it holds.
    public struct Generated: Sendable {
        /// The element, one line but for the raw newlines inside notes and descriptions.
        public var xml: String
        /// What a reader must hand over; nil when it must not (a draft or deleted release, or
        /// one that does not parse).
        public var expected: DumpRelease?
        /// Set for a release that does not parse.
        public var fault: Fault?
    }

    /// A release written so that it does not parse.
    public enum Fault: String, Sendable {
        /// A raw U+0001 in its title (the 2011 dump held one).
        case controlCharacter
        /// A `<` that starts no tag in its title (the 2014 dump).
        case invalidToken
    }

    /// What a written dump holds.
    public struct Summary: Sendable {
        public var releases = 0
        /// Releases a reader must hand over (Accepted, parsing).
        public var listed = 0
        public var unlisted = 0
        public var faulty: [(id: Int, fault: Fault)] = []
        public var barcodeValues = 0
        /// Distinct barcode keys over the listed releases.
        public var barcodeKeys = 0
        /// Uncompressed bytes written.
        public var bytes: Int64 = 0
    }

    public let count: Int
    public let faults: Bool
    private var random: SplitMix
    private var index = 0
    private var nextID = 1
    private var previousBarcode: String?

    /// `count` releases from `seed`; `faults` places one control character and one invalid
    /// token, at a third and two thirds of the way.
    public init(count: Int, seed: UInt64 = 1, faults: Bool = true) {
        self.count = count
        self.faults = faults
        random = SplitMix(seed: seed)
    }

    /// The next release; nil after `count`.
    public mutating func next() -> Generated? {
        guard index < count else { return nil }
        defer { index += 1 }
        let id = nextID
        nextID += 1 + random.below(3)
        return release(id: id)
    }

    /// Writes the whole dump to `path`: gzip-compressed when it ends in `.gz`, else as it is
    /// ("-" for standard output).
    @discardableResult
    public static func write(count: Int, seed: UInt64 = 1, faults: Bool = true, to path: String) throws -> Summary {
        var generator = DumpGenerator(count: count, seed: seed, faults: faults)
        let output = try DumpOutput(path: path)
        var summary = Summary()
        try output.write("<releases>")
        var keys = Set<UInt64>()
        while let release = generator.next() {
            summary.releases += 1
            try output.write(release.xml)
            try output.write("\n")
            if let fault = release.fault, let id = Self.id(in: release.xml) {
                summary.faulty.append((id, fault))
            } else if let expected = release.expected {
                summary.listed += 1
                summary.barcodeValues += expected.barcodes.count
                keys.formUnion(DumpBarcode.keys(expected.barcodes))
            } else {
                summary.unlisted += 1
            }
        }
        try output.write("</releases>\n")
        summary.barcodeKeys = keys.count
        summary.bytes = try output.close()
        return summary
    }

    private static func id(in xml: String) -> Int? {
        guard let start = xml.range(of: "id=\"") else { return nil }
        return Int(xml[start.upperBound...].prefix { $0.isNumber })
    }

    // MARK: - One release

    private mutating func release(id: Int) -> Generated {
        let old = index % 50 == 7 || index % 200 == 13
        let unlisted = index % 200 == 13
        let noStatus = !old && index % 10 == 3
        var fault: Fault?
        if faults, count >= 3 {
            if index == count / 3 { fault = .controlCharacter }
            if index == 2 * count / 3 { fault = .invalidToken }
        }
        var expected = DumpRelease(id: id)
        var x = "<release id=\"\(id)\""
        if unlisted {
            let status = random.below(2) == 0 ? "Draft" : "Deleted"
            x += " status=\"\(status)\""
            expected.status = status
        } else if !noStatus {
            x += " status=\"Accepted\""
            expected.status = "Accepted"
        }
        x += ">"
        if old {
            x += "<images>"
            for n in 0..<(1 + random.below(3)) {
                x += "<image height=\"600\" type=\"\(n == 0 ? "primary" : "secondary")\" uri=\"\" uri150=\"\" width=\"600\"/>"
            }
            x += "</images>"
        }
        // Artists, with join words and Discogs' " (2)" suffixes.
        x += "<artists>"
        let artistCount = random.below(6) == 0 ? 2 : 1
        for n in 0..<artistCount {
            var name = Self.artistNames[random.below(Self.artistNames.count)]
            if random.below(8) == 0 { name += " (\(2 + random.below(9)))" }
            let join = n < artistCount - 1 ? ["&", "Vs.", ",", "Feat."][random.below(4)] : ""
            expected.artists.append(.init(name: name, join: join))
            x += "<artist><id>\(1000 + random.below(900_000))</id><name>\(Self.escaped(name))</name>"
            let anv = random.below(10) == 0 ? Self.artistNames[random.below(Self.artistNames.count)] : ""
            x += element("anv", anv, old: old)
            x += element("join", join, old: old)
            if old { x += "<role></role><tracks></tracks>" }
            x += "</artist>"
        }
        x += "</artists>"
        // Title (an invalid token when asked).
        var title = (0..<(1 + random.below(4))).map { _ in Self.titleWords[random.below(Self.titleWords.count)] }.joined(separator: " ")
        if random.below(30) == 0 { title += " & Friends" }
        expected.title = title
        if fault == .invalidToken {
            x += "<title>\(Self.escaped(title)) < \(Self.escaped(title))</title>"
        } else if fault == .controlCharacter {
            x += "<title>\(Self.escaped(title))\u{01}</title>"
        } else {
            x += "<title>\(Self.escaped(title))</title>"
        }
        // Labels: one label twice with catalogue-number variants on every eighth release. Half
        // the releases are on the big labels, half on one of a long tail (Discogs lists about
        // two million labels).
        x += "<labels>"
        let label = random.below(2) == 0 ? Self.labels[random.below(Self.labels.count)] : smallLabel()
        let prefix = label.prefix
        let number = 1 + random.below(999)
        var credits: [DumpRelease.Label] = []
        switch index % 8 {
        case 0:
            credits = [
                .init(name: label.name, catno: "\(prefix) \(String(format: "%03d", number))", id: label.id),
                .init(name: label.name, catno: "\(prefix)\(String(format: "%03d", number))", id: label.id),
            ]
        case 5:
            credits = [.init(name: label.name, catno: "none", id: label.id)]
        default:
            credits = [.init(name: label.name, catno: "\(prefix)-\(number)", id: label.id)]
            if random.below(5) == 0 {
                let other = Self.labels[random.below(Self.labels.count)]
                credits.append(.init(name: other.name, catno: "\(other.prefix) \(number)", id: other.id))
            }
        }
        for credit in credits {
            x += "<label name=\"\(Self.escaped(credit.name))\" catno=\"\(Self.escaped(credit.catno))\" id=\"\(credit.id)\"/>"
        }
        expected.labels = credits
        x += "</labels>"
        if !old, random.below(6) == 0 {
            x += "<series><series name=\"Take\" catno=\"\(random.below(20))\" id=\"183060\"/></series>"
        }
        // Credits.
        x += "<extraartists>"
        for _ in 0..<(1 + random.below(6)) { x += credit(old: old, tracks: random.below(3) == 0) }
        x += "</extraartists>"
        // Formats.
        x += "<formats>"
        let format = Self.formats[random.below(Self.formats.count)]
        // The format's free text: a few common ones, and now and then one of its own (what a
        // catalogue numbers as terms grows with the dump, as the real ones' does).
        let text = switch random.below(48) {
        case 0...3: "Gatefold"
        case 4...6: Self.formatTexts[random.below(Self.formatTexts.count)]
        case 7: "Hand-numbered, signed by \(personName())"
        default: ""
        }
        x += "<format name=\"\(Self.escaped(format.name))\" qty=\"1\" text=\"\(text)\">"
        if !format.descriptions.isEmpty || old {
            x += "<descriptions>"
            for description in format.descriptions { x += "<description>\(Self.escaped(description))</description>" }
            x += "</descriptions>"
        }
        x += "</format></formats>"
        expected.formats = [.init(name: format.name, quantity: "1", text: text, descriptions: format.descriptions)]
        // Genres and styles.
        let genre = Self.genres[random.below(Self.genres.count)]
        expected.genres = [genre.name]
        x += "<genres><genre>\(Self.escaped(genre.name))</genre></genres>"
        let styles = Array(Set((0..<(1 + random.below(2))).map { _ in genre.styles[random.below(genre.styles.count)] })).sorted()
        expected.styles = styles
        x += "<styles>" + styles.map { "<style>\(Self.escaped($0))</style>" }.joined() + "</styles>"
        if random.below(20) != 0 {
            let country = Self.countries[random.below(Self.countries.count)]
            expected.country = country
            x += "<country>\(country)</country>"
        } else if old {
            x += "<country></country>"
        }
        // Released: every form, or missing.
        let year = 1950 + random.below(76)
        let month = 1 + random.below(12)
        let day = 1 + random.below(28)
        let released: String? = switch index % 5 {
        case 0: "\(year)"
        case 1: String(format: "%04d-%02d-%02d", year, month, day)
        case 2: String(format: "%04d-%02d-00", year, month)
        case 3: "\(year)-00-00"
        default: nil
        }
        expected.released = released
        if let released { x += "<released>\(released)</released>" }
        // Notes with raw newlines and CRs as &#13;, and a control character when asked.
        if faults, index == count / 2 {
            // A control character where the catalogue does not read: the release still is.
            x += "<notes>Pressed at \u{01} the plant.</notes>"
        } else if index % 4 == 0 {
            x += "<notes>Recorded at \(Self.titleWords[random.below(Self.titleWords.count)]) Studios.&#13;\n&#13;\n℗ &amp; © \(year) \(Self.escaped(label.name)).&#13;\n"
            x += notes(year: year) + "</notes>"
        } else if random.below(3) == 0 {
            x += "<notes>" + notes(year: year) + "</notes>"
        }
        x += "<data_quality>\(random.below(3) == 0 ? "Correct" : "Needs Vote")</data_quality>"
        switch random.below(10) {
        case 0...5:
            let master = 10_000 + random.below(3_000_000)
            let main = random.below(3) == 0
            expected.masterID = master
            expected.isMainRelease = main
            x += "<master_id is_main_release=\"\(main)\">\(master)</master_id>"
        case 6:
            x += "<master_id is_main_release=\"false\">0</master_id>"
        default:
            break
        }
        // Tracklist, with sub_tracks now and then: most of a real release's bytes.
        x += "<tracklist>"
        let tracks = 3 + random.below(11)
        var trackTitles: [String] = []
        for n in 0..<tracks {
            let side = n < tracks / 2 ? "A" : "B"
            let trackTitle = self.trackTitle()
            trackTitles.append(trackTitle)
            x += "<track><position>\(side)\(n + 1)</position><title>\(Self.escaped(trackTitle))</title>"
            x += "<duration>\(2 + random.below(8)):\(Self.twoDigits(random.below(60)))</duration>"
            if n == 0, index % 20 == 0 {
                x += "<sub_tracks><track><position>\(side)1a</position><title>Intro</title><duration>1:02</duration></track>"
                x += "<track><position>\(side)1b</position><title>Theme</title><duration>3:40</duration></track></sub_tracks>"
            }
            if random.below(4) == 0 {
                x += "<artists><artist><id>\(random.below(9_000_000))</id><name>\(Self.escaped(personName()))</name>\(old ? "<anv/><join/><role/><tracks/>" : "")</artist></artists>"
            }
            if random.below(5) < 2 {
                x += "<extraartists>"
                for _ in 0..<(1 + random.below(2)) { x += credit(old: old, tracks: false) }
                x += "</extraartists>"
            }
            x += "</track>"
        }
        x += "</tracklist>"
        // Identifiers: barcodes on about 27% of releases, then others.
        x += "<identifiers>"
        var barcodes: [(description: String, value: String)] = []
        if random.below(100) < 27 {
            barcodes = barcodeValues()
        }
        for barcode in barcodes {
            x += "<identifier type=\"Barcode\" description=\"\(barcode.description)\" value=\"\(Self.escaped(barcode.value))\"/>"
        }
        expected.barcodes = barcodes.map(\.value)
        x += "<identifier type=\"Matrix / Runout\" description=\"Side A\" value=\"\(Self.escaped(prefix))-\(number)-A1\"/>"
        x += "<identifier type=\"Rights Society\" description=\"\" value=\"GEMA\"/>"
        for _ in 0..<random.below(4) {
            let type = Self.identifierTypes[random.below(Self.identifierTypes.count)]
            let side = ["Side A", "Side B", "", "Runout Side A, Etched", "Variant 1"][random.below(5)]
            x += "<identifier type=\"\(type)\" description=\"\(side)\" value=\"\(Self.escaped(prefix)) \(random.below(100_000))-\(random.below(10))\(["", " A", " B2", " ▽"][random.below(4)])\"/>"
        }
        x += "</identifiers>"
        if index % 3 == 0 || random.below(3) == 0 {
            x += "<videos>"
            for n in 0..<(1 + random.below(3)) {
                let name = n == 0 ? title : trackTitles[random.below(trackTitles.count)]
                x += "<video src=\"https://www.youtube.com/watch?v=\(videoID())\" duration=\"\(100 + random.below(400))\" embed=\"true\">"
                x += "<title>\(Self.escaped(expected.artistCredit)) - \(Self.escaped(name))</title>"
                x += "<description>Provided to YouTube by \(Self.escaped(label.name))\n\n\(Self.escaped(name)) · \(Self.escaped(personName()))\n\n"
                x += "℗ \(year) \(Self.escaped(label.name))\n\nReleased on: \(year)-\(Self.twoDigits(month))-\(Self.twoDigits(day))</description></video>"
            }
            x += "</videos>"
        }
        x += "<companies>"
        for (type, name) in Self.companyRoles.prefix(1 + random.below(Self.companyRoles.count)) {
            let company: (name: String, id: Int) = switch random.below(3) {
            case 0: (label.name, label.id)
            case 1: (Self.labels[random.below(Self.labels.count)].name, Self.labels[random.below(Self.labels.count)].id)
            default: ("\(Self.familyNames[random.below(Self.familyNames.count)]) \(["Studios", "Music", "Pressing", "Publishing", "GmbH", "Ltd."][random.below(6)])", random.below(2_000_000))
            }
            x += "<company><id>\(company.id)</id><name>\(Self.escaped(company.name))</name>"
            x += old ? "<catno></catno>" : ""
            x += "<entity_type>\(type)</entity_type><entity_type_name>\(name)</entity_type_name>"
            x += "<resource_url>https://api.discogs.com/labels/\(company.id)</resource_url></company>"
        }
        x += "</companies>"
        x += "</release>"
        let listed = !unlisted && fault == nil
        return Generated(xml: x, expected: listed ? expected : nil, fault: fault)
    }

    /// One label of the long tail: its name and prefix follow from its id, as a label's do.
    private mutating func smallLabel() -> (name: String, prefix: String, id: Int) {
        let id = 100_000 + random.below(1_900_000)
        let family = Self.familyNames[id % Self.familyNames.count]
        let kind = ["Records", "Recordings", "Music", "Sounds", "Tonträger"][id / Self.familyNames.count % 5]
        return ("\(family) \(kind)", String(family.uppercased().prefix(3)), id)
    }

    // MARK: - What the catalogue strips

    /// A person as credits name them: "Maurice Engelen", now and then with a middle initial
    /// or Discogs' " (2)".
    private mutating func personName() -> String {
        var name = Self.givenNames[random.below(Self.givenNames.count)]
        if random.below(6) == 0 { name += " \(Character(UnicodeScalar(UInt8(65 + random.below(26)))))." }
        name += " " + Self.familyNames[random.below(Self.familyNames.count)]
        if random.below(10) == 0 { name += " (\(2 + random.below(20)))" }
        return name
    }

    /// One credit of `<extraartists>`: an artist, a role, and the tracks it covers.
    private mutating func credit(old: Bool, tracks: Bool) -> String {
        var x = "<artist><id>\(random.below(9_000_000))</id><name>\(Self.escaped(personName()))</name>"
        if random.below(8) == 0 { x += "<anv>\(Self.escaped(Self.familyNames[random.below(Self.familyNames.count)]))</anv>" } else if old { x += "<anv></anv>" }
        x += old ? "<join></join>" : ""
        var role = Self.roles[random.below(Self.roles.count)]
        if random.below(4) == 0 { role += ", " + Self.roles[random.below(Self.roles.count)] }
        x += "<role>\(Self.escaped(role))</role>"
        x += tracks ? "<tracks>A\(1 + random.below(3)) to B\(1 + random.below(4))</tracks>" : (old ? "<tracks></tracks>" : "")
        return x + "</artist>"
    }

    /// "Heart Of Glass (Dub)".
    private mutating func trackTitle() -> String {
        var words: [String] = []
        for _ in 0..<(1 + random.below(4)) { words.append(Self.trackWords[random.below(Self.trackWords.count)]) }
        var title = words.joined(separator: " ")
        if random.below(5) == 0 { title += " (\(Self.trackVersions[random.below(Self.trackVersions.count)]))" }
        return title
    }

    /// A few sentences of liner notes, with raw newlines between them.
    private mutating func notes(year: Int) -> String {
        var text: [String] = []
        for _ in 0..<(1 + random.below(4)) {
            let place = Self.places[random.below(Self.places.count)]
            let sentence = switch random.below(8) {
            case 0: "Recorded at \(Self.familyNames[random.below(Self.familyNames.count)]) Studios, \(place), \(year)."
            case 1: "Limited edition of \(100 * (1 + random.below(50))) copies."
            case 2: "Artwork by \(personName())."
            case 3: "\(personName()) appears courtesy of \(Self.labels[random.below(Self.labels.count)].name)."
            case 4: "Tracks \(1 + random.below(5)) and \(6 + random.below(5)) previously unreleased."
            case 5: "Made in \(place). Pressed on \(120 + 20 * random.below(4)) gram vinyl."
            case 6: "All tracks written by \(personName()) except \(["A", "B"][random.below(2)])\(1 + random.below(6))."
            default: "Remastered in \(year + random.below(30)) by \(personName())."
            }
            text.append(Self.escaped(sentence))
        }
        return text.joined(separator: "\n")
    }

    /// A YouTube video's id: eleven characters of base64url.
    private mutating func videoID() -> String {
        var value = random.next()
        var id = ""
        for _ in 0..<11 {
            id.append(Self.base64URL[Int(value & 63)])
            value >>= 6
        }
        return id
    }

    private static let base64URL = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    private func element(_ name: String, _ value: String, old: Bool) -> String {
        if !value.isEmpty { return "<\(name)>\(Self.escaped(value))</\(name)>" }
        return old ? (name == "anv" ? "<anv/>" : "<\(name)></\(name)>") : ""
    }

    /// One code as releases list it: bare, in printed groups, with the `>` light-margin mark,
    /// as a UPC-A and its EAN-13, with a wrong check digit, or runout text in the field.
    private mutating func barcodeValues() -> [(description: String, value: String)] {
        if index % 97 == 5, let previousBarcode {
            // Several pressings share one barcode.
            return [("", previousBarcode)]
        }
        var digits = (0..<11).map { _ in random.below(10) }
        let upc = random.below(3) == 0
        if !upc { digits = [4 + random.below(5)] + digits }
        digits.append(Self.checkDigit(digits))
        let code = digits.map(String.init).joined()
        previousBarcode = code
        switch random.below(8) {
        case 0:
            // Scanned and Text forms of one EAN-13: "7 961220 922684 >".
            let ean = upc ? "0" + code : code
            let groups = "\(ean.prefix(1)) \(ean.dropFirst().prefix(6)) \(ean.suffix(6)) >"
            return [("Scanned", ean), ("Text", groups)]
        case 1 where upc:
            // Text "0 602498 674123" and Scanned UPC-A.
            return [("Text", "\(code.prefix(1)) \(code.dropFirst().prefix(5))\(code.dropFirst(6).prefix(1)) \(code.suffix(5))"), ("Scanned", code)]
        case 2 where upc:
            // The UPC-A and its EAN-13.
            return [("", code), ("", "0" + code)]
        case 3:
            // Dashes.
            return [("", "\(code.prefix(1))-\(code.dropFirst().prefix(5))-\(code.dropFirst(6).prefix(5))-\(code.suffix(code.count - 11))")]
        case 4:
            // A wrong check digit as printed, beside the right one.
            let wrong = code.dropLast() + String((digits[digits.count - 1] + 1) % 10)
            return [("", String(wrong)), ("Scanned", code)]
        case 5 where random.below(2) == 0:
            // Runout text typed into the barcode field: not indexed.
            previousBarcode = nil
            return [("", "SD 4000-A2 FOON")]
        default:
            return [("", code)]
        }
    }

    private static func checkDigit(_ body: [Int]) -> Int {
        var sum = 0
        for (offset, digit) in body.reversed().enumerated() { sum += digit * (offset % 2 == 0 ? 3 : 1) }
        return (10 - sum % 10) % 10
    }

    /// `text` as XML character data. Byte by byte: the four characters are ASCII, and UTF-8
    /// never uses an ASCII byte inside another character; the generator's vocabulary holds no
    /// combining mark after one (which would have made a Character of it). Walking the
    /// Characters was a fifth of the generator's time.
    static func escaped(_ text: String) -> String {
        let special: (UInt8) -> Bool = { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "\"") }
        guard text.utf8.contains(where: special) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 32)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): out += "&amp;".utf8
            case UInt8(ascii: "<"): out += "&lt;".utf8
            case UInt8(ascii: ">"): out += "&gt;".utf8
            case UInt8(ascii: "\""): out += "&quot;".utf8
            default: out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
