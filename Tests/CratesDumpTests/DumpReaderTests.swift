import CratesCore
import CratesDumpGenerator
import CratesTestSupport
import Foundation
import Testing

@testable import CratesDump

/// The dump reader over real release elements (Fixtures/discogs-dump, CC0) and over dumps of
/// the project's generator, with every trait of the real ones.
@Suite(.offThePool) struct DumpReaderTests {
    /// Reads the whole of `path`, returning the releases and what was skipped.
    static func readAll(_ path: String, batchSize: Int = 100) throws -> (releases: [DumpRelease], skipped: [DumpSkip], unlisted: Int) {
        let reader = try DumpReader(path: path)
        var releases: [DumpRelease] = []
        var skipped: [DumpSkip] = []
        var unlisted = 0
        try reader.read(batchSize: batchSize) { batch in
            releases += batch.releases
            skipped += batch.skipped
            unlisted += batch.unlisted
        }
        return (releases, skipped, unlisted)
    }

    /// The five real elements inside one `<releases>`, each file's source comment kept.
    static func realDump(in directory: TemporaryDirectory) throws -> String {
        let folder = packageRoot + "/Fixtures/discogs-dump"
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".xml") }.sorted()
        var text = "<releases>"
        for name in names { text += try String(contentsOfFile: folder + "/" + name, encoding: .utf8) + "\n" }
        text += "</releases>\n"
        let path = directory.file("real.xml")
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    @Test("real elements of 2019 to 2025: fields found by name in every format")
    func realElements() throws {
        let directory = try TemporaryDirectory()
        let read = try Self.readAll(try Self.realDump(in: directory))
        #expect(read.skipped.isEmpty)
        let byID = Dictionary(read.releases.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        #expect(read.releases.count == 5)

        let wink = try #require(byID[3])
        #expect(wink.artistCredit == "Josh Wink")
        #expect(wink.title == "Profound Sounds Vol. 1")
        #expect(wink.labels == [.init(name: "Ruffhouse Records", catno: "CK 63628", id: 6)])
        #expect(wink.formats == [.init(name: "CD", quantity: "1", text: "", descriptions: ["Compilation", "Mixed"])])
        #expect(wink.genres == ["Electronic"])
        #expect(wink.styles == ["Techno", "Tech House"])
        #expect(wink.country == "US")
        #expect(wink.released == "1999-07-13")
        #expect(wink.masterID == 66526)
        #expect(wink.isMainRelease == false)
        #expect(wink.barcodes == ["074646362822"])

        let ebe = try #require(byID[21])
        #expect(ebe.artistCredit == "E.B.E. (2)")
        #expect(ebe.formats.first?.summary == "Vinyl, 12\", EP, 33 ⅓ RPM")
        #expect(ebe.barcodes == ["7961220922684", "7 961220 922684 >"])
        #expect(DumpBarcode.keys(ebe.barcodes).count == 1)
        #expect(ebe.isMainRelease)

        let chichos = try #require(byID[4497865])
        #expect(chichos.title == "Todo Chichos (De La Rumba Somos Los Dueños)")
        #expect(chichos.barcodes == ["0 602498 674123", "602498674123"])
        #expect(chichos.released == "2004")

        // Release 40299 twice (2023 and 2025 dumps, pretty-printed): the same fields read.
        let takes = read.releases.filter { $0.id == 40299 }
        #expect(takes.count == 2)
        for take in takes {
            #expect(take.artistCredit == "Various")
            #expect(take.title == "New Beat - Take 4")
            #expect(take.labels.map(\.catno) == ["Subway Dance 4000", "SD 4000-LP"])
            #expect(take.barcodes.isEmpty)
            #expect(take.masterID == 35574)
        }
    }

    @Test("a generated dump: every release read as generated, the faulty two skipped and named")
    func generated() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("discogs_20250601_releases.xml.gz")
        let count = 1_200
        let summary = try DumpGenerator.write(count: count, seed: 42, faults: true, to: path)
        var generator = DumpGenerator(count: count, seed: 42, faults: true)
        var expected: [DumpRelease] = []
        while let release = generator.next() { if let release = release.expected { expected.append(release) } }

        let read = try Self.readAll(path, batchSize: 97)
        #expect(read.releases.count == expected.count)
        for (got, want) in zip(read.releases, expected) where got != want {
            Issue.record("release \(want.id): read \(got), generated \(want)")
            break
        }
        #expect(read.unlisted == summary.unlisted)
        #expect(summary.unlisted > 0)
        #expect(read.skipped.map(\.releaseID) == summary.faulty.map(\.id))
        #expect(read.skipped.allSatisfy { $0.reason.contains("invalid token") || $0.reason.contains("not well-formed") })
        // The traits are there: old-format releases, no status, several barcode forms, sub_tracks.
        #expect(expected.contains { $0.status == nil })
        #expect(expected.contains { $0.barcodes.contains { $0.hasSuffix(">") } })
        #expect(expected.contains { $0.labels.count == 2 && $0.labels[0].name == $0.labels[1].name })
        #expect(expected.contains { $0.released == nil })
    }

    @Test("the same dump uncompressed and on its own reads the same")
    func uncompressed() throws {
        let directory = try TemporaryDirectory()
        let gz = directory.file("a.xml.gz")
        let xml = directory.file("a.xml")
        try DumpGenerator.write(count: 300, seed: 3, faults: false, to: gz)
        try DumpGenerator.write(count: 300, seed: 3, faults: false, to: xml)
        #expect(try Self.readAll(gz).releases == Self.readAll(xml).releases)
    }

    @Test("a truncated gzip file fails with a clear message")
    func truncatedGzip() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("cut.xml.gz")
        try DumpGenerator.write(count: 2_000, seed: 5, faults: false, to: path)
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: path))
        #expect {
            _ = try Self.readAll(path)
        } throws: { error in
            guard let error = error as? DumpError, case .damaged = error else { return false }
            return error.description.contains("damaged or cut short")
        }
    }

    @Test("corrupt gzip data fails with a clear message")
    func corruptGzip() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("bad.xml.gz")
        try DumpGenerator.write(count: 2_000, seed: 5, faults: false, to: path)
        var data = try Data(contentsOf: URL(fileURLWithPath: path))
        for index in stride(from: data.count / 3, to: data.count / 3 + 64, by: 1) { data[index] ^= 0x5A }
        try data.write(to: URL(fileURLWithPath: path))
        #expect(throws: DumpError.self) { _ = try Self.readAll(path) }
    }

    @Test("an uncompressed dump cut inside a release fails")
    func truncatedXML() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("cut.xml")
        try DumpGenerator.write(count: 50, seed: 5, faults: false, to: path)
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        try data.prefix(data.count - 300).write(to: URL(fileURLWithPath: path))
        #expect {
            _ = try Self.readAll(path)
        } throws: { error in
            guard let error = error as? DumpError, case .truncated = error else { return false }
            return true
        }
    }

    @Test("a file that is no dump is refused")
    func notADump() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("notes.txt")
        try "hello\n".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(throws: DumpError.self) { _ = try Self.readAll(path) }
        #expect(throws: DumpError.self) { _ = try DumpReader(path: directory.file("missing.xml.gz")) }
    }

    @Test("a control character and an invalid token: the release is skipped, named, and the rest read")
    func faults() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("faults.xml")
        let text = """
            <releases><release id="1" status="Accepted"><title>One</title></release>
            <release id="2"><title>Two</title><notes>bad \u{01} byte</notes></release>
            <release id="3"><title>Three &amp; more</title></release>
            <release id="4"><title>Four < four</title></release>
            <release id="5"><title>Five</title><identifiers><identifier type="Barcode" description="" value="7 961220 922684 &gt;"/></identifiers></release>
            <release id="6"><title>Six \u{01}</title></release>
            <release id="7"><title>Seven</title><tracklist><track><title>a < b</title></track></tracklist><labels><label name="L" catno="C 7" id="9"/></labels></release>
            </releases>

            """
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        let read = try Self.readAll(path)
        // A fault inside an element the catalogue does not read (notes, the tracklist) costs
        // nothing: those elements are stripped before parsing.
        #expect(read.releases.map(\.id) == [1, 2, 3, 5, 7])
        #expect(read.releases.map(\.title) == ["One", "Two", "Three & more", "Five", "Seven"])
        #expect(read.releases.last?.labels == [.init(name: "L", catno: "C 7", id: 9)])
        #expect(read.releases[3].barcodes == ["7 961220 922684 >"])
        #expect(read.skipped.map(\.releaseID) == [4, 6])
        #expect(read.skipped.first?.description.hasPrefix("release 4: ") == true)
        // Offsets are the dump's own, however much was stripped before them.
        let four = try #require(read.skipped.first)
        let start = try #require(text.range(of: "<release id=\"4\">")).lowerBound.utf16Offset(in: text)
        let end = try #require(text.range(of: "Four < four")).upperBound.utf16Offset(in: text)
        #expect((start...end).contains(Int(four.offset)), "offset \(four.offset), release 4 at \(start)...\(end)")
    }

    @Test("the stripped elements go whole, nested credits and all, and nothing else")
    func stripping() {
        let text = "<release id=\"1\"><title>T</title><extraartists><artist><name>X</name></artist></extraartists>"
            + "<tracklist><track><extraartists><artist><name>Y</name></artist></extraartists></track></tracklist>"
            + "<tracklist/><notes>n</notes><videos><video><description>d</description></video></videos></release>"
        let stripped = ElementStripper.strip(Array(text.utf8)[...])
        #expect(String(decoding: stripped.bytes, as: UTF8.self) == "<release id=\"1\"><title>T</title><tracklist/></release>")
        #expect(stripped.removals.last?.removedBefore == text.utf8.count - stripped.bytes.count)
    }
}
