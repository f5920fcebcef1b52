import CratesCore
import CratesStore
import CratesTestSupport
import Foundation
import Testing

/// `crates export` and `crates backup` on a terminal say what they wrote; to a pipe they
/// stay silent (scripts read nothing new).
@Suite("export and backup say what they wrote (tmux)", .serialized, .processTimeLimit)
struct WroteOnTerminalEndToEndTests {
    static func run(_ sandbox: TUIEndToEndTests.Sandbox, _ arguments: String) async throws -> TmuxSession {
        let binary = try ProcessRunner.cratesBinary().path
        return try await TmuxSession(
            command: "\(TmuxSession.quote(binary)) --db \(TmuxSession.quote(sandbox.database)) \(arguments)",
            environment: sandbox.environment, width: 160, height: 24)
    }

    @Test("export --csv, export --json and backup: the count and the file, on a terminal")
    func said() async throws {
        let sandbox = try TUIEndToEndTests.Sandbox()
        let store = try CollectionStore(path: sandbox.database)
        try await ExportCommandTests.seedAwkward(store)
        let csv = sandbox.directory.appendingPathComponent("out.csv").path
        let json = sandbox.directory.appendingPathComponent("out.json").path
        let backup = sandbox.directory.appendingPathComponent("copy.sqlite").path
        for (arguments, said) in [
            ("export --csv \(TmuxSession.quote(csv))", "Wrote 3 records to \(csv) (CSV"),
            ("export --json \(TmuxSession.quote(json))", "Wrote 3 records to \(json) (JSON"),
            ("backup \(TmuxSession.quote(backup))", "Wrote a backup of the collection to \(backup) ("),
        ] {
            let tmux = try await Self.run(sandbox, arguments)
            let screen = try await tmux.waitFor(text: TmuxSession.exitMarker)
            #expect(screen.contains { $0.hasPrefix(said) }, "\(arguments): \(screen)")
            #expect(try await tmux.exitReport().status == 0)
        }
    }
}
