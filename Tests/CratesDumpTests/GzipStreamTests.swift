import CZlib
import CratesDumpGenerator
import CratesTestSupport
import Foundation
import Testing

@testable import CratesDump

/// ISA-L's inflate (`GzipStream`) held to zlib's `gzread`, which the reader used before: the
/// same bytes out of every fixture, generated dump, empty and multi-member file, and the same
/// refusals of every truncated and damaged one.
@Suite(.offThePool) struct GzipStreamTests {
    /// What zlib's `gzread` makes of `path`: its bytes, and whether it refused the file.
    static func zlib(_ path: String) -> (bytes: [UInt8], refused: Bool) {
        guard let file = gzopen(path, "rb") else { return ([], true) }
        defer { gzclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { gzread(file, $0.baseAddress, UInt32($0.count)) }
            var code: Int32 = 0
            _ = gzerror(file, &code)
            if count < 0 || (code != Z_OK && code != Z_STREAM_END) { return (bytes, true) }
            if count == 0 { return (bytes, false) }
            bytes += chunk[..<Int(count)]
        }
    }

    /// What `GzipStream` makes of `path`, read in pieces of `piece` bytes.
    static func isal(_ path: String, piece: Int = 1 << 16) -> (bytes: [UInt8], refused: Bool) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return ([], true) }
        let stream = GzipStream(descriptor: descriptor)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: piece)
        while true {
            do {
                let count = try chunk.withUnsafeMutableBytes { try stream.read(into: $0) }
                if count == 0 { return (bytes, false) }
                bytes += chunk[..<count]
            } catch {
                return (bytes, true)
            }
        }
    }

    /// `bytes` gzipped by zlib (level 6, as Discogs' dumps and the generator's are).
    static func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
        let directory = try TemporaryDirectory()
        let path = directory.file("out.gz")
        let file = try #require(gzopen(path, "wb6"))
        if !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { gzwrite(file, $0.baseAddress, UInt32($0.count)) }
            #expect(written == Int32(bytes.count))
        }
        gzclose(file)
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    static func fixtures() throws -> [(name: String, bytes: [UInt8])] {
        let folder = packageRoot + "/Fixtures/discogs-dump"
        return try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".xml") }.sorted().map {
            ($0, Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + $0))))
        }
    }

    /// Writes `bytes` to a file of `directory` and expects both inflaters to agree on it.
    @discardableResult
    static func agree(_ bytes: [UInt8], _ name: String, in directory: TemporaryDirectory) throws -> (bytes: [UInt8], refused: Bool) {
        let path = directory.file(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let expected = zlib(path)
        for piece in [1 << 16, 1 << 20, 7] where piece > 7 || bytes.count < 100_000 {
            let got = isal(path, piece: piece)
            #expect(got.refused == expected.refused, "\(name), pieces of \(piece): zlib refused: \(expected.refused), ISA-L: \(got.refused)")
            if !expected.refused {
                #expect(got.bytes == expected.bytes, "\(name), pieces of \(piece): \(got.bytes.count) bytes against zlib's \(expected.bytes.count)")
            }
        }
        return expected
    }

    @Test("every fixture, each gzipped, all in one, and uncompressed: the same bytes as zlib's")
    func fixturesAgree() throws {
        let directory = try TemporaryDirectory()
        let fixtures = try Self.fixtures()
        #expect(fixtures.count >= 5)
        var all: [UInt8] = []
        for fixture in fixtures {
            let out = try Self.agree(try Self.gzip(fixture.bytes), fixture.name + ".gz", in: directory)
            #expect(!out.refused && out.bytes == fixture.bytes, "\(fixture.name)")
            // An uncompressed file is read as it is, by both.
            let raw = try Self.agree(fixture.bytes, fixture.name, in: directory)
            #expect(!raw.refused && raw.bytes == fixture.bytes, "\(fixture.name)")
            all += fixture.bytes
        }
        #expect(try Self.agree(try Self.gzip(all), "all.gz", in: directory).bytes == all)
    }

    @Test("a generated dump, and gzip's own file with a name in its header: the same bytes as zlib's")
    func generatedAndGzipTool() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("discogs_20250601_releases.xml.gz")
        try DumpGenerator.write(count: 3_000, seed: 4, faults: true, to: path)
        let dump = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let out = try Self.agree(dump, "generated.xml.gz", in: directory)
        #expect(!out.refused && out.bytes.count > 3_000 * 3_000)

        // gzip(1) writes the file's name and time in the header (FNAME), which zlib's level-6
        // files do not have.
        let plain = directory.file("named.xml")
        try Data(out.bytes.prefix(200_000)).write(to: URL(fileURLWithPath: plain))
        let result = try await ProcessRunner.run(URL(fileURLWithPath: "/bin/gzip"), arguments: ["-k", "-9", plain])
        #expect(result.status == 0, "\(result)")
        let named = Array(try Data(contentsOf: URL(fileURLWithPath: plain + ".gz")))
        #expect(named[3] & 0x08 != 0, "gzip wrote no name")
        let read = try Self.agree(named, "named.xml.gz", in: directory)
        #expect(!read.refused && read.bytes == Array(out.bytes.prefix(200_000)))
    }

    @Test("empty files: nothing out, nothing refused, by both")
    func empty() throws {
        let directory = try TemporaryDirectory()
        let none = try Self.agree([], "empty", in: directory)
        #expect(!none.refused && none.bytes.isEmpty)
        let emptyMember = try Self.gzip([])
        #expect(emptyMember.count > 0)
        let member = try Self.agree(emptyMember, "empty.gz", in: directory)
        #expect(!member.refused && member.bytes.isEmpty)
        let two = try Self.agree(emptyMember + emptyMember, "two-empty.gz", in: directory)
        #expect(!two.refused && two.bytes.isEmpty)
    }

    @Test("several members read as their contents joined; what follows the last is ignored, by both")
    func multiMember() throws {
        let directory = try TemporaryDirectory()
        let fixtures = try Self.fixtures()
        let a = fixtures[0].bytes, b = fixtures[1].bytes, c = fixtures[2].bytes
        let members = try Self.gzip(a) + Self.gzip(b) + Self.gzip([]) + Self.gzip(c)
        let joined = try Self.agree(members, "members.gz", in: directory)
        #expect(!joined.refused && joined.bytes == a + b + c)
        // Trailing zeros (a tape's padding), and trailing text: ignored by both.
        for (name, tail) in [("zeros", [UInt8](repeating: 0, count: 512)), ("text", Array("hello\n".utf8)), ("one", [0x1F])] {
            let out = try Self.agree(members + tail, "tail-\(name).gz", in: directory)
            #expect(!out.refused && out.bytes == a + b + c, "\(name)")
        }
        // A second member whose magic is damaged is no member: trailing garbage to both.
        var second = try Self.gzip(b)
        second[1] = 0x8C
        let out = try Self.agree(try Self.gzip(a) + second, "bad-magic.gz", in: directory)
        #expect(!out.refused && out.bytes == a)
    }

    @Test("a file cut anywhere, in its header, its data or its trailer, or between members: refused by both")
    func truncated() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("dump.xml.gz")
        try DumpGenerator.write(count: 300, seed: 2, faults: false, to: path)
        let whole = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        // One byte is no gzip file to either, but a file of its own (read as it is).
        #expect(try Self.agree(Array(whole.prefix(1)), "cut-1.gz", in: directory) == ([0x1F], false))
        for length in [2, 3, 5, 9, 10, 11, 100, whole.count / 3, whole.count / 2, whole.count - 9, whole.count - 8, whole.count - 4, whole.count - 1] {
            let out = try Self.agree(Array(whole.prefix(length)), "cut-\(length).gz", in: directory)
            #expect(out.refused, "cut at \(length) of \(whole.count)")
        }
        // The second member cut: the first's bytes, then refused.
        let second = try Self.gzip(Array("<releases></releases>".utf8))
        let out = try Self.agree(whole + second.prefix(second.count - 3), "cut-second.gz", in: directory)
        #expect(out.refused)
    }

    @Test("damaged data, checksum, length, header method or flags: refused by both")
    func damaged() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("dump.xml.gz")
        try DumpGenerator.write(count: 300, seed: 3, faults: false, to: path)
        let whole = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        var cases: [(String, [UInt8])] = []
        var data = whole
        for index in stride(from: whole.count / 3, to: whole.count / 3 + 64, by: 1) { data[index] ^= 0x5A }
        cases.append(("data", data))
        data = whole
        data[whole.count / 2] ^= 0x01
        cases.append(("one bit", data))
        data = whole
        data[whole.count - 6] ^= 0x10
        cases.append(("crc", data))
        data = whole
        data[whole.count - 2] ^= 0x01
        cases.append(("length", data))
        data = whole
        data[2] = 7
        cases.append(("method", data))
        data = whole
        data[3] |= 0xE0
        cases.append(("reserved flags", data))
        for (name, bytes) in cases {
            let out = try Self.agree(bytes, "damaged-\(name.replacingOccurrences(of: " ", with: "-")).gz", in: directory)
            #expect(out.refused, "\(name)")
        }
    }

    @Test("the reader over a dump in several members reads what it reads of one")
    func readerOverMembers() throws {
        let directory = try TemporaryDirectory()
        let xml = directory.file("dump.xml")
        try DumpGenerator.write(count: 600, seed: 6, faults: false, to: xml)
        let text = Array(try Data(contentsOf: URL(fileURLWithPath: xml)))
        let thirds = [text[..<(text.count / 3)], text[(text.count / 3)..<(2 * text.count / 3)], text[(2 * text.count / 3)...]]
        let members = try thirds.map { try Self.gzip(Array($0)) }.reduce([], +)
        let path = directory.file("members.xml.gz")
        try Data(members).write(to: URL(fileURLWithPath: path))
        #expect(try DumpReaderTests.readAll(path).releases == DumpReaderTests.readAll(xml).releases)
    }
}
