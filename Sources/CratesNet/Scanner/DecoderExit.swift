import CratesCore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// How a decoder run ended, and what that tells the user.
public enum DecoderExit: Hashable, Sendable {
    /// posix_spawn failed with this errno (ENOENT: the program is not there).
    case couldNotStart(errno: Int32)
    /// It exited with this status.
    case exited(status: Int32)
    /// A signal ended it.
    case signalled(Int32)
    /// It ended, but its status was taken by someone else (another part of the process
    /// reaped it).
    case unknown

    /// A sentence for the log, from the exit and the decoder's last lines on stderr: the
    /// usual ways a camera decoder fails (no camera, no permission, busy, not installed) are
    /// named with what to do.
    public func explanation(command: DecoderCommand, stderr: [String]) -> String {
        let said = stderr.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        let text = stderr.joined(separator: "\n")
        let device = Self.deviceName(in: text) ?? command.device ?? "the camera"
        if case .couldNotStart(let code) = self {
            if command.isZbarcam, code == ENOENT {
                return "zbarcam is not installed: install zbar-tools (sudo apt-get install zbar-tools), or name another decoder with --decoder"
            }
            return "could not start \(command): \(String(cString: strerror(code)))"
        }
        if text.contains("Permission denied") {
            return "no permission to open \(device): add yourself to the video group (sudo adduser $USER video), then log in again"
        }
        if text.contains("opening video device") && text.contains("No such file or directory") {
            return "no camera at \(device): is it plugged in? (choose another with --device)"
        }
        if text.contains("Device or resource busy") {
            return "\(device) is busy: another program is using the camera"
        }
        let detail = said.map { ": \(GTIN.displayForm(of: $0, limit: 160))" } ?? ""
        switch self {
        case .exited(127):
            return command.isZbarcam
                ? "zbarcam could not be run (exit status 127)\(detail)"
                : "the decoder command was not found (exit status 127)\(detail)"
        case .exited(let status):
            return "the decoder exited with status \(status)\(detail)"
        case .signalled(let signal):
            return "the decoder was killed by signal \(signal)\(detail)"
        case .unknown:
            return "the decoder ended\(detail)"
        case .couldNotStart:
            return "could not start \(command)"  // handled above
        }
    }

    /// zbar names the device it could not open: `opening video device '/dev/video0'`.
    static func deviceName(in text: String) -> String? {
        guard let start = text.range(of: "video device '") else { return nil }
        let rest = text[start.upperBound...]
        guard let end = rest.firstIndex(of: "'") else { return nil }
        return String(rest[..<end])
    }
}
