import ArgumentParser

extension ExitCode {
    /// Says `message` on standard error after the command's name, as every error begins
    /// ("crates cover: …", `Crates._errorPrefix`), and is the status the command ends with.
    static func failing(_ message: String, _ status: Int32) -> ExitCode {
        StandardStreams.errLine(Crates._errorPrefix + message)
        return ExitCode(status)
    }
}
