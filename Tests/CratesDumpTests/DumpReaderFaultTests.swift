import CratesCore
import CratesDumpGenerator
import CratesTestSupport
import Foundation
import Testing

@testable import CratesDump

/// What one release gets wrong costs that release alone: a release left open, an id that is
/// no release's, a field of megabytes. And a dump that holds nothing says so.
@Suite(.offThePool) struct DumpReaderFaultTests {
    static func write(_ text: String, in directory: TemporaryDirectory, name: String = "dump.xml") throws -> String {
        let path = directory.file(name)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    @Test("a release left open mid-dump is skipped and named; the one after it, and the rest, are read")
    func releaseLeftOpen() throws {
        let directory = try TemporaryDirectory()
        // Each left open in another place: in its text, in a section, in a stripped element
        // (whose end tag a later release holds), inside a tag.
        let text = """
            <releases><release id="1"><title>One</title></release>
            <release id="2"><title>Two</title><tracklist><track><title>cut here
            <release id="3"><title>Three</title><tracklist><track><title>x</title></track></tracklist></release>
            <release id="4"><title>Four</title><labels><label name="L" catno="C 4" id="9"/>
            <release id="5"><title>Five</title><labels><label name="L" catno="C 5" id="9"/></labels></release>
            <release id="6"><title>Six
            <release id="7"><title>Seven</title><notes>n</notes></release>
            <release id="8"><labels><label name="Cut
            <release id="9"><title>Nine</title></release>
            <release id="10"><title>Ten</title><notes>left open
            <release id="11"><title>Eleven</title><notes>m</notes><identifiers><identifier type="Barcode" value="7961220922684"/></identifiers></release>
            </releases>

            """
        let read = try DumpReaderTests.readAll(try Self.write(text, in: directory))
        #expect(read.releases.map(\.id) == [1, 3, 5, 7, 9, 11])
        #expect(read.releases.map(\.title) == ["One", "Three", "Five", "Seven", "Nine", "Eleven"])
        #expect(read.releases.first { $0.id == 5 }?.labels == [.init(name: "L", catno: "C 5", id: 9)])
        #expect(read.releases.last?.barcodes == ["7961220922684"])
        // Each named by its id; the one cut inside a tag, where the fault is (the `<` of the
        // next release, which a value may not hold).
        #expect(read.skipped.map(\.releaseID) == [2, 4, 6, 8, 10], "\(read.skipped)")
        #expect(read.skipped.first?.description.hasPrefix("release 2: ") == true, "\(read.skipped)")
        #expect(read.skipped.first?.reason.contains("not closed") == true, "\(read.skipped)")
        try #require(read.skipped.count == 5)
        let nine = try #require(text.range(of: "<release id=\"9\">")).lowerBound.utf16Offset(in: text)
        #expect(read.skipped[3].offset == Int64(nine), "\(read.skipped[3])")
    }

    @Test("a generated dump with a release cut short in its middle: that one skipped, every other read")
    func generatedReleaseLeftOpen() throws {
        let directory = try TemporaryDirectory()
        var generator = DumpGenerator(count: 3_000, seed: 9, faults: false)
        var text = "<releases>"
        var expected: [Int] = []
        var cutID = 0
        while let release = generator.next() {
            if cutID == 0, release.expected != nil, release.xml.count > 2_000 {
                // Cut inside its tracklist, as a dump cut and joined again would be.
                cutID = release.expected?.id ?? 0
                text += String(release.xml.prefix(release.xml.count / 2)) + "\n"
                continue
            }
            text += release.xml + "\n"
            if let id = release.expected?.id { expected.append(id) }
        }
        text += "</releases>\n"
        let read = try DumpReaderTests.readAll(try Self.write(text, in: directory), batchSize: 500)
        #expect(read.releases.map(\.id) == expected)
        #expect(read.skipped.map(\.releaseID) == [cutID], "\(read.skipped)")
    }

    @Test("an empty <releases></releases> says it holds no release, not that it is no dump")
    func emptyReleases() throws {
        let directory = try TemporaryDirectory()
        for text in ["<releases></releases>\n", "<releases/>", "<releases>\n</releases>"] {
            let path = try Self.write(text, in: directory)
            #expect {
                _ = try DumpReaderTests.readAll(path)
            } throws: { error in
                guard let error = error as? DumpError, case .noRelease = error else { return false }
                return error.description.contains("holds no release") && !error.description.contains("does not begin with")
            }
        }
        // Another of Discogs' dumps, or no XML at all, is still no releases dump.
        for text in ["<artists><artist><id>1</id></artist></artists>", "hello\n"] {
            let path = try Self.write(text, in: directory)
            #expect {
                _ = try DumpReaderTests.readAll(path)
            } throws: { error in
                guard let error = error as? DumpError, case .notADump = error else { return false }
                return true
            }
        }
    }

    @Test("a release whose id is no release number is skipped and named; the others are read")
    func releaseIDs() throws {
        let directory = try TemporaryDirectory()
        let text = """
            <releases><release id="1"><title>One</title></release>
            <release id="abc"><title>Letters</title></release>
            <release id=""><title>Empty</title></release>
            <release id="-5"><title>Negative</title></release>
            <release id="12345678901234567890"><title>Twenty digits</title></release>
            <release id="0"><title>Zero</title></release>
            <release><title>None</title></release>
            <release id=" 7 "><title>Spaces</title></release>
            <release id="8"><title>Eight</title></release>
            </releases>

            """
        let read = try DumpReaderTests.readAll(try Self.write(text, in: directory))
        #expect(read.releases.map(\.id) == [1, 8])
        try #require(read.skipped.count == 7, "\(read.skipped)")
        #expect(read.skipped.allSatisfy { $0.releaseID == nil }, "\(read.skipped)")
        let descriptions = read.skipped.map(\.description)
        #expect(descriptions[0].contains("\"abc\"") && descriptions[0].contains("not a release id"), "\(descriptions)")
        #expect(descriptions[1].contains("\"\""), "\(descriptions)")
        #expect(descriptions[2].contains("\"-5\""), "\(descriptions)")
        #expect(descriptions[3].contains("\"12345678901234567890\""), "\(descriptions)")
        #expect(descriptions[5].contains("no id"), "\(descriptions)")
        for (description, title) in zip(descriptions, ["Letters", "Empty", "Negative", "Twenty digits", "Zero", "None", "Spaces"]) {
            let titleAt = try #require(text.range(of: ">\(title)<")).lowerBound
            let start = try #require(text.range(of: "<release", options: .backwards, range: text.startIndex..<titleAt)).lowerBound
            let offset = text.utf8.distance(from: text.utf8.startIndex, to: start)
            #expect(description.hasPrefix("the release at byte \(offset): "), "\(description)")
        }
    }

    /// Writes `parts` to `path`: texts, and runs of megabytes of one character.
    static func writeLarge(_ parts: [Part], to path: String) throws {
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        for part in parts {
            switch part {
            case .text(let text):
                try handle.write(contentsOf: Data(text.utf8))
            case .repeated(let character, let megabytes):
                let chunk = Data(String(repeating: character, count: (1 << 20) / character.utf8.count).utf8)
                for _ in 0..<megabytes { try handle.write(contentsOf: chunk) }
            }
        }
        try handle.close()
    }

    enum Part {
        case text(String)
        case repeated(String, megabytes: Int)
    }

    @Test("a title of 2 MB and a catalogue number of 3 MB are cut to what a record can show")
    func hugeFields() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("huge.xml")
        try Self.writeLarge([
            .text("<releases><release id=\"1\"><title>One</title></release>\n<release id=\"2\"><title>Long "),
            .repeated("é", megabytes: 2),
            .text("</title><labels><label name=\"L\" catno=\""),
            .repeated("9", megabytes: 3),
            .text("\" id=\"3\"/></labels></release>\n<release id=\"4\"><title>Four</title></release>\n</releases>\n"),
        ], to: path)
        let read = try DumpReaderTests.readAll(path)
        #expect(read.releases.map(\.id) == [1, 2, 4])
        let two = try #require(read.releases.first { $0.id == 2 })
        #expect(two.title.hasPrefix("Long éé"))
        #expect(two.title.utf8.count <= DumpRelease.fieldLimit)
        #expect(two.title.utf8.count > DumpRelease.fieldLimit - 4)
        #expect(two.labels.first?.catno.utf8.count == DumpRelease.fieldLimit)
        #expect(two.labels.first?.id == 3)
        #expect(read.skipped.isEmpty, "\(read.skipped)")
    }

    @Test("a release larger than any of Discogs' (a title of 50 MB) is skipped and named, never held")
    func hugeRelease() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("huge.xml")
        try Self.writeLarge([
            .text("<releases><release id=\"1\"><title>One</title></release>\n<release id=\"3\" status=\"Accepted\"><title>"),
            .repeated("x", megabytes: 50),
            .text("</title></release>\n<release id=\"4\"><title>Four</title></release>\n</releases>\n"),
        ], to: path)
        let read = try DumpReaderTests.readAll(path)
        #expect(read.releases.map(\.id) == [1, 4])
        #expect(read.skipped.map(\.releaseID) == [3], "\(read.skipped)")
        #expect(read.skipped.first?.reason.contains("larger than 16 MB") == true, "\(read.skipped)")
        let start = "<releases><release id=\"1\"><title>One</title></release>\n".utf8.count
        #expect(read.skipped.first?.offset == Int64(start), "\(read.skipped)")
    }
}
