import CratesNet
import Testing

@Suite("Scanner: socket path resolution")
struct ScanSocketPathTests {
    @Test("--socket, then XDG_RUNTIME_DIR, then a private /tmp directory named for the uid", arguments: [
        ("/x/s.sock", ["XDG_RUNTIME_DIR": "/run/user/1000"], "/x/s.sock", false, "/x"),
        (nil, ["XDG_RUNTIME_DIR": "/run/user/1000"], "/run/user/1000/crates/scan.sock", true, "/run/user/1000/crates"),
        (nil, ["XDG_RUNTIME_DIR": "/run/user/1000/"], "/run/user/1000/crates/scan.sock", true, "/run/user/1000/crates"),
        ("", ["XDG_RUNTIME_DIR": "/run/user/1000"], "/run/user/1000/crates/scan.sock", true, "/run/user/1000/crates"),
        (nil, ["XDG_RUNTIME_DIR": "relative/dir"], "/tmp/crates-1000/scan.sock", true, "/tmp/crates-1000"),
        (nil, ["XDG_RUNTIME_DIR": ""], "/tmp/crates-1000/scan.sock", true, "/tmp/crates-1000"),
        (nil, [:], "/tmp/crates-1000/scan.sock", true, "/tmp/crates-1000"),
        ("scan.sock", [:], "scan.sock", false, "."),
        ("/scan.sock", [:], "/scan.sock", false, "/"),
    ] as [(String?, [String: String], String, Bool, String)])
    func resolves(option: String?, environment: [String: String], path: String, isDefault: Bool, directory: String) {
        let resolved = ScanSocketPath.resolve(option: option, environment: environment, uid: 1000)
        #expect(resolved.path == path)
        #expect(resolved.isDefault == isDefault)
        #expect(resolved.directory == directory)
    }
}
