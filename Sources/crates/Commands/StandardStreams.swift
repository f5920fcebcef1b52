import Foundation

/// Standard output and standard error for the scriptable commands: written at once (no
/// buffer to lose if the process is stopped, and the two streams interleave in order when
/// they share a terminal or a file).
enum StandardStreams {
    static func out(_ text: String) throws {
        try FileHandle.standardOutput.write(contentsOf: Data(text.utf8))
    }

    /// A message for the person at the terminal. Never fails: a closed stderr loses it.
    static func err(_ text: String) {
        try? FileHandle.standardError.write(contentsOf: Data(text.utf8))
    }
}
