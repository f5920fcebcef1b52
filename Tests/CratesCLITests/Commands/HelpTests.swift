import CratesTestSupport
import Foundation
import Testing

/// Every command says what it does, with an example; `crates --version` prints the version.
@Suite("crates --help and --version (process)", .processTimeLimit)
struct HelpTests {
    @Test("--help on every command: an abstract and examples of that command", arguments: [
        [], ["add"], ["list"], ["export"], ["lookup"], ["barcode"], ["auth"], ["sync"], ["edit"],
        ["catalogue"], ["catalogue", "build"], ["catalogue", "status"], ["catalogue", "remove"],
    ])
    func help(_ command: [String]) async throws {
        let result = try await ProcessRunner.crates(command + ["--help"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("OVERVIEW: "), "\(result)")
        #expect(result.stdout.contains("Examples:"), "\(result)")
        let example = (["  crates"] + command).joined(separator: " ")
        #expect(result.stdout.components(separatedBy: "\n").contains { $0.hasPrefix(example) }, "\(result)")
    }

    @Test("the root help lists every subcommand")
    func subcommands() async throws {
        let result = try await ProcessRunner.crates(["--help"])
        for name in ["add", "list", "export", "lookup", "barcode", "auth", "sync", "edit"] {
            #expect(result.stdout.contains("\n  \(name) "), "\(name) missing: \(result)")
        }
    }

    @Test("crates help COMMAND is the same as crates COMMAND --help")
    func helpCommand() async throws {
        let viaHelp = try await ProcessRunner.crates(["help", "export"])
        let viaFlag = try await ProcessRunner.crates(["export", "--help"])
        #expect(viaHelp.status == 0 && viaFlag.status == 0, "\(viaHelp)\n\(viaFlag)")
        #expect(viaHelp.stdout == viaFlag.stdout)
    }

    @Test("--version prints the version")
    func version() async throws {
        let result = try await ProcessRunner.crates(["--version"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "0.1.0\n")
    }
}
