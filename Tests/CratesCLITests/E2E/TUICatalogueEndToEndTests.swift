import CratesCore
import CratesTestSupport
import Foundation
import Testing

/// The collection UI and the local catalogue, in tmux: a catalogue built again while the UI
/// runs is the one its lookups answer from next, with no restart.
@Suite("Collection UI and a catalogue built while it runs (tmux)", .serialized, .processTimeLimit)
struct TUICatalogueEndToEndTests {
    static let older = Fixtures.gtin(8_300_001)
    static let newer = Fixtures.gtin(8_300_002)

    /// Each record's barcode, state and catalogue edition, as `crates list --json` says.
    static func records(_ sandbox: TUIEndToEndTests.Sandbox) async throws -> [String: (state: String, edition: String?)] {
        let result = try await ProcessRunner.crates(["list", "--json", "--db", sandbox.database], environment: sandbox.environment)
        var records: [String: (String, String?)] = [:]
        for line in result.stdoutLines {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let gtin = object["gtin"] as? String
            else { continue }
            records[gtin] = (object["state"] as? String ?? "", object["catalogueEdition"] as? String)
        }
        return records
    }

    @Test("a newer catalogue built at its path while the UI runs: the next scan is answered from it, and what the older one lacked too; no request")
    func newerCatalogueTaken() async throws {
        let sandbox = try TUIEndToEndTests.Sandbox()
        let path = sandbox.directory.appendingPathComponent("data/crates/discogs-catalogue.sqlite").path
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try await CatalogueFixture.build([(Fixtures.catalogueRelease(1), [Self.older])], edition: "20260601", at: path)
        let tmux = try await sandbox.start(width: 100, height: 24, extra: "--no-scanner")
        try await tmux.waitFor(text: "No records yet.")

        // Not in June's dump: it waits for Discogs (no account here).
        try await tmux.type(Self.newer.canonical + "\r")
        try await waitUntil("the scan asked of June's catalogue", within: .seconds(120)) {
            try await Self.records(sandbox)[Self.newer.canonical]?.edition == "2026-06-01"
        }

        // July's dump, built over June's while the UI runs; then a scan.
        try await CatalogueFixture.build(
            [(Fixtures.catalogueRelease(1), [Self.older]), (Fixtures.catalogueRelease(2), [Self.newer])], edition: "20260701", at: path)
        try await tmux.type(Self.older.canonical + "\r")
        try await waitUntil(
            "both answered from July's catalogue", within: .seconds(120),
            lastSeen: { "\((try? await Self.records(sandbox)) ?? [:])" }
        ) {
            let records = try await Self.records(sandbox)
            return [Self.older, Self.newer].allSatisfy {
                records[$0.canonical]?.state == "matched" && records[$0.canonical]?.edition == "2026-07-01"
            }
        }
        try await tmux.press("q")
        #expect(try await tmux.exitReport().status == 0)
    }
}
