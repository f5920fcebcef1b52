import CratesStore

extension CollectionExport {
    /// Why `crates export` wrote nothing.
    public enum Failure: Error, CustomStringConvertible {
        /// The file could not be made there (`ExportFile`'s refusals: a collection's own file,
        /// a directory, a closed standard output…).
        case open(ExportError)
        /// A query term the store cannot read: the command line is wrong, not the export.
        case query(StoreError)
        /// The writing failed: the file is left as it was (`ExportFile.abandon`).
        case write(String)

        public var description: String {
            switch self {
            case .open(let error): error.description
            case .query(let error): "\(error)"
            case .write(let reason): reason
            }
        }
    }

    /// `crates export`: the records written to `path` ("-": standard output) as Discogs'
    /// CSV (`crlf` line ends) or crates' JSON, the file replaced only once complete, never
    /// `database`'s own; how many records.
    public func export(to path: String, csv: Bool, crlf: Bool, sparing database: String?) async throws(Failure) -> Int {
        let file: ExportFile
        do throws(ExportError) {
            file = try ExportFile(path: path, sparing: database)
        } catch {
            throw .open(error)
        }
        do {
            let count = try await csv ? writeCSV(to: file, crlf: crlf) : writeJSON(to: file)
            try file.commit()
            return count
        } catch {
            file.abandon()
            if case let error as StoreError = error, case .query = error { throw .query(error) }
            throw .write("\(error)")
        }
    }
}
