import CratesCore
import CratesNet
import Foundation

/// The folder a sync adds copies to: `--folder` (an id or a name), else `discogs_sync_folder`
/// in `config.json` beside the credentials, else 1 ("Uncategorized").
public enum SyncFolder {
    /// What the configuration says of the folder.
    public enum Configured: Sendable, Hashable {
        /// No configuration file, or no `discogs_sync_folder` in it: folder 1.
        case none
        case folder(String)
        /// The file cannot be read, is not JSON, or its `discogs_sync_folder` names no
        /// folder: a sync that would add copies stops (a wrong default would put them where
        /// the person did not mean).
        case unreadable(String)

        public var folder: String? {
            if case .folder(let name) = self { return name }
            return nil
        }
    }

    /// The config's `discogs_sync_folder`.
    public static func configured(environment: [String: String] = ProcessInfo.processInfo.environment) -> Configured {
        guard let directory = try? CredentialStore.configDirectory(environment: environment) else { return .none }
        let path = directory + "/config.json"
        guard FileManager.default.fileExists(atPath: path) else { return .none }
        guard let data = FileManager.default.contents(atPath: path) else {
            return .unreadable("\(path) cannot be read: fix or remove it, or give --folder")
        }
        return configured(data, path: path)
    }

    /// The folder of a configuration file's bytes (`path` for the messages).
    public static func configured(_ data: Data, path: String) -> Configured {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            return .unreadable("\(path) is not valid JSON\(JSONErrorPlace.describe(error, in: data)): fix it, or give --folder")
        }
        guard let members = object as? [String: Any] else {
            return .unreadable("\(path) must hold a JSON object, such as {\"discogs_sync_folder\": \"Vinyl\"}: fix it, or give --folder")
        }
        guard let value = members["discogs_sync_folder"] else { return .none }
        if let text = value as? String {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if !trimmed.isEmpty { return .folder(trimmed) }
        } else if let number = value as? Int {
            return .folder(String(number))
        }
        return .unreadable("discogs_sync_folder in \(path) names no folder: give a folder's id or name, or give --folder")
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
