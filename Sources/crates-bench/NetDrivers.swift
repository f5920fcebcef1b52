import CratesCore
import CratesNet
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Driver processes for the CratesNet tests: what only a process of its
/// own can show (descriptors it was started without, a daemon killed -9).
enum NetDrivers {
    /// `descriptors --file PATH`: after `main` has filled descriptors 0–2 (as `crates scand`
    /// will first thing), opens PATH for writing and prints `opened N` and where 0–2 lead
    /// (`fd2 /dev/null`). Run it with `2>&-`: the file must not become its standard error.
    static func descriptors(_ options: Options) async throws {
        let fd = open(try options.required("--file"), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw UsageError("cannot open --file") }
        var lines = ["opened \(fd)"]
        for standard in 0...2 {
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(standard)")) ?? "closed"
            lines.append("fd\(standard) \(target)")
        }
        // A write to "standard error" must not reach the file.
        _ = "crates: a message for standard error\n".withCString { Glibc.write(2, $0, strlen($0)) }
        Drivers.say(lines.joined(separator: "\n"))
    }

    /// `scand --socket PATH --decoder COMMAND`: a camera daemon as `crates scand` runs it, its
    /// log on standard output, until standard input closes (or it is killed).
    static func scand(_ options: Options) async throws {
        let configuration = ScanDaemon.Configuration(
            socket: ScanSocketPath(path: try options.required("--socket"), isDefault: false),
            decoder: DecoderCommand.shell(try options.required("--decoder")))
        let daemon = try ScanDaemon(configuration: configuration, log: { Drivers.say($0) })
        daemon.start()
        while readLine() != nil {}
        daemon.stop()
        _ = daemon.waitUntilStopped()
    }
}
