import CratesTestSupport
import Foundation
import Testing

/// `make install PREFIX=…` puts the binary, its man page and its shell completions where a
/// user's tools look for them, and `make uninstall` takes them away. The build under test is
/// installed (`CRATES_BIN`), so the test builds nothing.
@Suite("make install and uninstall (process)", .processTimeLimit)
struct InstallTests {
    /// The package's directory, where the Makefile is.
    static let packageDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private func make(_ arguments: [String]) async throws -> ProcessResult {
        try await ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"), arguments: ["make", "--no-print-directory", "-C", Self.packageDirectory.path] + arguments,
            deadline: .seconds(300))
    }

    @Test("make install PREFIX=DIR: the binary, the man page (readable by man -l) and bash, zsh and fish completions; make uninstall removes them")
    func installAndUninstall() async throws {
        let binary = try ProcessRunner.cratesBinary()
        // Beside the debug build's products, wherever the crates under test was built.
        let tool = try #require(
            try? ProcessRunner.builtProduct(named: "generate-manual-tool"),
            "swift-argument-parser's generate-manual is not built beside the tests: run `make manual-tool` (`make test` does)")
        let prefix = try TemporaryDirectory()
        defer { prefix.remove() }
        let installed = try await make(["install", "PREFIX=\(prefix.path)", "CRATES_BIN=\(binary.path)", "GENERATE_MANUAL=\(tool.path)"])
        #expect(installed.status == 0, "\(installed)")

        let files = [
            "bin/crates", "share/man/man1/crates.1", "share/bash-completion/completions/crates",
            "share/zsh/site-functions/_crates", "share/fish/vendor_completions.d/crates.fish",
        ].map(prefix.file)
        for file in files { #expect(FileManager.default.fileExists(atPath: file), "\(file) missing: \(installed)") }
        #expect(FileManager.default.isExecutableFile(atPath: files[0]))
        let version = try await ProcessRunner.run(URL(fileURLWithPath: files[0]), arguments: ["--version"])
        #expect(version.status == 0 && version.stdout == "0.1.0\n", "\(version)")

        #expect(try String(contentsOfFile: files[2], encoding: .utf8).contains("_crates"))
        #expect(try String(contentsOfFile: files[3], encoding: .utf8).hasPrefix("#compdef crates"))
        #expect(try String(contentsOfFile: files[4], encoding: .utf8).contains("complete -c 'crates'"))

        let manual = try String(contentsOfFile: files[1], encoding: .utf8)
        #expect(manual.contains(".Dt CRATES 1"), "an mdoc page for section 1: \(manual.prefix(400))")
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/man") {
            let shown = try await ProcessRunner.run(
                URL(fileURLWithPath: "/usr/bin/man"), arguments: ["-l", files[1]],
                environment: ["MANPAGER": "cat", "PAGER": "cat", "MANWIDTH": "80"])
            #expect(shown.status == 0, "\(shown)")
            #expect(!shown.stderr.contains("warning"), "mdoc reads it without a warning: \(shown.stderr.prefix(600))")
            // Every command is in it, with what its help says.
            for text in ["crates — A terminal cataloguer for record collections.", "import  Add the records of a file of barcodes", "move    Put records in a place."] {
                #expect(shown.stdout.contains(text), "\(text): \(shown.stdout.prefix(600))")
            }
        }

        let removed = try await make(["uninstall", "PREFIX=\(prefix.path)"])
        #expect(removed.status == 0, "\(removed)")
        for file in files { #expect(!FileManager.default.fileExists(atPath: file), "\(file) left: \(removed)") }
    }
}
