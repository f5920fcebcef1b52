import CratesTestSupport
import Foundation
import Testing

/// config.json as people and programs leave it: a UTF-8 byte order mark (Windows' Notepad
/// writes one) is no reason to call it "not valid JSON"; a file every user may write is not
/// trusted, as the collection's files are not.
@Suite("config.json: a byte order mark, and whose the file is (process)", .serialized, .processTimeLimit)
struct ConfigFileTests {
    static func file(_ sandbox: CommandSandbox) -> URL {
        sandbox.directory.appendingPathComponent("config/crates/config.json")
    }

    static func write(_ bytes: [UInt8], in sandbox: CommandSandbox, mode: Int = 0o600) throws {
        let url = file(sandbox)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
        #expect(chmod(url.path, mode_t(mode)) == 0)
    }

    static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]

    @Test("a UTF-8 byte order mark before the object: read as JSON, no warning; a change keeps the mark and the rest")
    func byteOrderMark() async throws {
        let sandbox = try CommandSandbox()
        try Self.write(Self.bom + Array("{\n  \"sort\": \"year\"\n}\n".utf8), in: sandbox)
        let read = try await sandbox.crates(["config", "sort"])
        #expect(read.status == 0 && read.stdout == "year\n", "\(read)")
        #expect(read.stderr.isEmpty, "\(read)")
        let set = try await sandbox.crates(["config", "covers", "false"])
        #expect(set.status == 0, "\(set)")
        let bytes = [UInt8](try Data(contentsOf: Self.file(sandbox)))
        #expect(bytes.starts(with: Self.bom), "the mark kept")
        let text = String(decoding: bytes.dropFirst(3), as: UTF8.self)
        #expect(text.contains("\"sort\": \"year\"") && text.contains("\"covers\": false"), "\(text)")
        let again = try await sandbox.crates(["config", "covers"])
        #expect(again.status == 0 && again.stdout == "false\n" && again.stderr.isEmpty, "\(again)")
    }

    @Test("a config.json every user may write: not read (said, every setting its default, sync adds no copies), not written (exit 1, left as it is)")
    func everyUserMayWrite() async throws {
        let sandbox = try CommandSandbox()
        let original = Array("{\"sort\": \"year\", \"discogs_sync_folder\": \"Theirs\"}\n".utf8)
        try Self.write(original, in: sandbox, mode: 0o666)
        let read = try await sandbox.crates(["config", "sort"])
        #expect(read.status == 0 && read.stdout == "artist\n", "its value not taken: \(read)")
        #expect(read.stderr.contains("every user may write") || read.stderr.contains("may be written by every user"), "\(read)")
        #expect(read.stderr.contains("chmod o-w"), "\(read)")
        let set = try await sandbox.crates(["config", "sort", "title"])
        #expect(set.status == 1, "\(set)")
        #expect([UInt8](try Data(contentsOf: Self.file(sandbox))) == original, "left as it is")
        // Any command says so as it starts.
        let list = try await sandbox.crates(["list"])
        #expect(list.stderr.contains("config.json"), "\(list)")
    }
}
