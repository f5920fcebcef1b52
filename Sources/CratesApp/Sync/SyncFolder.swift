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
        guard let file = try? ConfigurationFile(environment: environment) else { return .none }
        return configured(file.load())
    }

    /// The folder of a configuration file's bytes (`path` for the messages).
    public static func configured(_ data: Data, path: String) -> Configured {
        configured(Preferences(reading: Array(data), path: path, layouts: ConfigurationFile.layouts, layoutProblem: ConfigurationFile.layoutProblem))
    }

    /// The folder the preferences name, or why they name none that can be trusted.
    static func configured(_ preferences: Preferences) -> Configured {
        if preferences.isUnusable, let problem = preferences.problems.first {
            return .unreadable("\(problem): fix it, or give --folder")
        }
        if let problem = preferences.problem(with: .syncFolder) {
            return .unreadable("\(problem): fix it, or give --folder")
        }
        return preferences.syncFolder.map { .folder($0) } ?? .none
    }

    /// The folder `wanted` names among the user's `folders` (an id, or a name in any case);
    /// 1 when nothing is wanted. Folder 0 ("All") cannot take copies.
    static func resolve(_ wanted: String?, in folders: [DiscogsCollectionFolder]) -> Result<Int, SyncError> {
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
