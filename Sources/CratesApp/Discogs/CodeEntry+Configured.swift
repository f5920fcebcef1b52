import CratesCore
import CratesNet
import Foundation

extension CodeEntry {
    /// What a person typed, with the release pages of the configured Discogs web address
    /// (`CRATES_DISCOGS_WEB`, e.g. a mirror or a test server) taken as discogs.com's are.
    public static func parseConfigured(
        _ text: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(LabelCodeError) -> CodeEntry {
        try parse(text, webBases: [DiscogsEndpoints(environment: environment).web])
    }

    /// Whether `text` names a Discogs release (`r249504` or a release page of either address).
    public static func namesRelease(_ text: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        ReleaseReference.parse(text, webBases: [DiscogsEndpoints(environment: environment).web]) != nil
    }
}
