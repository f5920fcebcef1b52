import ArgumentParser
import CratesApp

extension DiscogsAccess {
    /// The saved credentials, for work that must be signed in (prices, a removal from
    /// Discogs); else says why, "crates COMMAND: …", and ends with 3 (the README's status
    /// for credentials).
    static func signedIn() throws -> DiscogsAccess {
        do {
            let access = try DiscogsAccess.make()
            try access.requireSignedIn()
            return access
        } catch {
            throw ExitCode.failing("\(error)", 3)
        }
    }
}
