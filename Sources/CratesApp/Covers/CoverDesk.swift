import CratesCore
import CratesStore
import Foundation
import Synchronization

/// The collection UI's covers: each asked for is answered from the cache on disk at once
/// (drawn off the UI thread), and those to fetch wait in line for Discogs, one at a time,
/// the latest asked first (the one the person is looking at now), never all at once.
final class CoverDesk: Sendable {
    private let library: CoverLibrary
    private let renderer: any CoverRendering
    private let post: @Sendable (SessionEvent) -> Void

    private struct Fetch: Sendable {
        var request: CoverRequest
        var release: Int
        var url: String?
    }

    private struct State {
        /// Waiting to be fetched, oldest first (the last is taken first).
        var line: [Fetch] = []
        var fetching: Int?
        var worker: Task<Void, Never>?
        var tasks: [Int: Task<Void, Never>] = [:]
        var nextTask = 0
        var stopped = false
    }

    private let state = Mutex(State())

    init(library: CoverLibrary, renderer: any CoverRendering, post: @escaping @Sendable (SessionEvent) -> Void) {
        self.library = library
        self.renderer = renderer
        self.post = post
    }

    /// Answers `request`: from the cache at once, else once fetched.
    func ask(_ request: CoverRequest) {
        run { await self.answer(request) }
    }

    /// Cancels the fetch under way and forgets the line; returns once every task has ended.
    func stop() async {
        let tasks = state.withLock { state in
            state.stopped = true
            state.line.removeAll()
            return Array(state.tasks.values) + [state.worker].compactMap { $0 }
        }
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
    }

    private func run(_ work: @escaping @Sendable () async -> Void) {
        state.withLock { state in
            guard !state.stopped else { return }
            let number = state.nextTask
            state.nextTask += 1
            state.tasks[number] = Task {
                await work()
                _ = self.state.withLock { $0.tasks.removeValue(forKey: number) }
            }
        }
    }

    private func answer(_ request: CoverRequest) async {
        let release: Int
        var url: String?
        switch request.subject {
        case .release(let id, let known):
            release = id
            url = known
        case .record(let id):
            guard let store = library.store, let record = try? await store.record(id) else { return }
            guard let id = record.releaseID else {
                post(.cover(request, .placeholder(CoverProblem.notMatched.description)))
                return
            }
            release = id
        }
        switch library.cache.entry(release) {
        case .image(let bytes):
            draw(bytes, for: request)
        case .noCover:
            post(.cover(request, .placeholder(CoverProblem.noCover.description)))
        case nil:
            queue(Fetch(request: request, release: release, url: url))
        }
    }

    private func draw(_ bytes: [UInt8], for request: CoverRequest) {
        if let art = renderer.render(bytes, columns: request.columns, rows: request.rows, colours: request.colours) {
            post(.cover(request, .art(art)))
        } else {
            post(.cover(request, .placeholder("not an image crates reads")))
        }
    }

    /// Puts a fetch in line (again at its end, when it waited already), and starts the worker
    /// when none runs.
    private func queue(_ fetch: Fetch) {
        state.withLock { state in
            guard !state.stopped else { return }
            state.line.removeAll { $0.request == fetch.request }
            state.line.append(fetch)
            guard state.worker == nil else { return }
            state.worker = Task { await self.work() }
        }
    }

    private func work() async {
        while !Task.isCancelled {
            let next: Fetch? = state.withLock { state in
                guard let fetch = state.line.popLast() else {
                    state.worker = nil
                    state.fetching = nil
                    return nil
                }
                state.fetching = fetch.release
                return fetch
            }
            guard let next else { return }
            do {
                let image = try await library.cover(release: next.release, url: next.url)
                draw(image.bytes, for: next.request)
            } catch {
                if Task.isCancelled { return }
                post(.cover(next.request, .placeholder(error.description)))
            }
            state.withLock { $0.fetching = nil }
        }
    }
}
