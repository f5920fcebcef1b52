import CratesTestSupport
import Foundation
import Testing

/// `crates catalogue build FIFO` where nobody writes the FIFO: opening it waits for a writer,
/// and Ctrl-C and SIGTERM must still end the build at once (it used to wait in `open(2)`
/// where no stop was looked for, and only kill -9 ended it).
@Suite("crates catalogue build from a FIFO (process)", .processTimeLimit)
struct CatalogueFIFOCommandTests {
    @Test("a FIFO nobody writes: Ctrl-C or SIGTERM ends the build, the catalogue as it was", arguments: [SIGINT, SIGTERM])
    func nobodyWrites(_ signal: Int32) async throws {
        let sandbox = try CommandSandbox()
        let fifo = sandbox.directory.appendingPathComponent("dump.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let building = CatalogueCommandTests.cataloguePath(sandbox) + ".building"
        // The deadline is a guard, not a measure: a build that ignores the signal is killed
        // there, and the test fails.
        let child = try ProcessRunner.startCrates(
            ["catalogue", "build", "--date", "20250601", fifo], environment: sandbox.environment, deadline: .seconds(60))
        // The building file is taken after the signals are handled and before the dump is opened.
        try await waitUntil("the build takes \(building)", lastSeen: { child.stderrSoFar }) {
            FileManager.default.fileExists(atPath: building)
        }
        #expect(child.signal(signal))
        let result = await child.result()
        #expect(!result.timedOut, "\(result)")
        #expect(result.status == 128 + signal && !result.signalled, "\(result)")
        #expect(result.stderr.contains("Stopping the build"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: building))
        #expect(!FileManager.default.fileExists(atPath: CatalogueCommandTests.cataloguePath(sandbox)))
    }
}
