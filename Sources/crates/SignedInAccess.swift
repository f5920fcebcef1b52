import ArgumentParser
import CratesApp

extension DiscogsAccess {
    /// The saved credentials, for work that must be signed in (prices, a removal from
    /// Discogs); else says why, "crates COMMAND: …", and ends with 3 (the README's status
    /// for credentials).
    static func signedIn(for command: String) throws -> DiscogsAccess {
        do {
            let access = try DiscogsAccess.make()
            try access.requireSignedIn()
            return access
        } catch {
            StandardStreams.errLine("crates \(command): \(error)")
            throw ExitCode(3)
        }
    }
}
