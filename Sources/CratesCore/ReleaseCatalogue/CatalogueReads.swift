import Dispatch

/// Where the catalogue's reads run for async callers: threads of their own, never the
/// cooperative pool's. The pool has one thread a core (two here); a full-text search over
/// millions of releases holding one of them would stall every other task of the process
/// (the UI's session, the lookup worker, a sync) for as long as the search takes. The queue
/// is concurrent, so the search as one types and the lookup worker's reads do not queue
/// behind each other (the file is opened by a pool of readers).
enum CatalogueReads {
    private static let queue = DispatchQueue(label: "crates.catalogue.reads", qos: .userInitiated, attributes: .concurrent)

    /// Runs `read` on the queue and waits for it without holding a pool thread.
    static func run<T: Sendable>(
        _ read: @escaping @Sendable () throws(ReleaseCatalogueError) -> T
    ) async throws(ReleaseCatalogueError) -> T {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, ReleaseCatalogueError>, Never>) in
            queue.async {
                continuation.resume(returning: Result { () throws(ReleaseCatalogueError) in try read() })
            }
        }
        return try result.get()
    }
}
