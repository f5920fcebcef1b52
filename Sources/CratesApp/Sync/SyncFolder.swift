import CratesCore
import CratesNet
import Foundation

/// The folder a sync adds copies to: `--folder` (an id or a name), else `discogs_sync_folder`
/// in `config.json` beside the credentials, else 1 ("Uncategorized").
public enum SyncFolder {
    /// The config's `discogs_sync_folder` (a number or a name), if any.
    public static func configured(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        guard let directory = try? CredentialStore.configDirectory(environment: environment),
              let data = FileManager.default.contents(atPath: directory + "/config.json"),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        if let number = object["discogs_sync_folder"] as? Int { return String(number) }
        if let text = object["discogs_sync_folder"] as? String, !text.isEmpty { return text }
        return nil
    }

    /// The folder `wanted` names among the user's `folders` (an id, or a name in any case);
    /// 1 when nothing is wanted. Folder 0 ("All") cannot take copies.
    static func resolve(_ wanted: String?, in folders: [DiscogsCollectionFolder]) -> Result<Int, SyncFailure> {
        guard let wanted = wanted?.trimmingCharacters(in: .whitespaces), !wanted.isEmpty else {
            return .success(DiscogsCollectionFolder.uncategorizedID)
        }
        let names = folders.filter { $0.id != DiscogsCollectionFolder.allID }.map { "\($0.id) \"\($0.name)\"" }.joined(separator: ", ")
        if let id = Int(wanted) {
            if id == DiscogsCollectionFolder.allID {
                return .failure(.folder("folder 0 is \"All\", which holds every copy and takes none: choose one of \(names)"))
            }
            if id == DiscogsCollectionFolder.uncategorizedID || folders.contains(where: { $0.id == id }) { return .success(id) }
        } else if let folder = folders.first(where: { $0.id != DiscogsCollectionFolder.allID && $0.name.lowercased() == wanted.lowercased() }) {
            return .success(folder.id)
        }
        return .failure(.folder("your Discogs collection has no folder \"\(ControlCharacters.cleaned(wanted))\": choose one of \(names)"))
    }
}
