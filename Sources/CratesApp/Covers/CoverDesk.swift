import CratesCore
import CratesStore
import Foundation
import Synchronization

/// The collection UI's covers: each asked for is answered from the cache on disk at once
/// (drawn off the UI thread), and those to fetch wait in line for Discogs, one at a time,
/// the latest asked first (the one the person is looking at now), never all at once.
///
/// "Latest" is the order of `ask` calls, fixed when asked (the cache is read on a task, and
/// tasks may reach the line in any order), so a screen that asks for the covers it shows
/// and then for the one looked at gets that one first. The line keeps the `lineLimit` latest;
/// an older one falls out and is answered `.loading`: not fetched, ask again when shown again
/// (a person paging through 200 pressings costs the covers they stop at, not 200).
final class CoverDesk: Sendable {
    private let library: CoverLibrary
    private let renderer: any CoverRendering
    private let post: @Sendable (SessionEvent) -> Void

    /// Fetches waiting at most: far more than a screen shows (a picker page of thumbnails is
    /// a dozen), so only covers no longer on the screen fall out.
    static let lineLimit = 48

    private struct Fetch: Sendable {
        var request: CoverRequest
        /// When it was asked: the line is kept in this order.
        var asked: Int
        var release: Int
        var url: String?
    }

    private struct State {
        /// Waiting to be fetched, oldest first (the last is taken first).
        var line: [Fetch] = []
        var fetching: Int?
        var worker: Task<Void, Never>?
        var nextAsk = 0
        var stopped = false
    }

    private let state = Mutex(State())
    private let tasks = TaskRegistry()

    init(library: CoverLibrary, renderer: any CoverRendering, post: @escaping @Sendable (SessionEvent) -> Void) {
        self.library = library
        self.renderer = renderer
        self.post = post
    }

    /// Answers `request`: from the cache at once, else once fetched.
    func ask(_ request: CoverRequest) {
        let asked = state.withLock { state in
            state.nextAsk += 1
            return state.nextAsk
        }
        run { await self.answer(request, asked: asked) }
    }

    /// Cancels the fetch under way and forgets the line; returns once every task has ended.
    func stop() async {
        let worker = state.withLock { state in
            state.stopped = true
            state.line.removeAll()
            return state.worker
        }
        worker?.cancel()
        await tasks.stop()
        await worker?.value
    }

    private func run(_ work: @escaping @Sendable () async -> Void) {
        tasks.spawn(work)
    }

    private func answer(_ request: CoverRequest, asked: Int) async {
        let release: Int
        var url: String?
        switch request.subject {
        case .release(let id, let known):
            release = id
            url = known
        case .record(let id):
            guard let store = library.store, let record = try? await store.record(id) else { return }
            guard let id = record.releaseID else {
                post(.cover(request, .placeholder(CoverError.notMatched.description)))
                return
            }
            release = id
        }
        switch library.cache.entry(release) {
        case .image(let bytes):
            draw(bytes, for: request)
        case .noCover:
            post(.cover(request, .placeholder(CoverError.noCover.description)))
        case nil:
            queue(Fetch(request: request, asked: asked, release: release, url: url))
        }
    }

    private func draw(_ bytes: [UInt8], for request: CoverRequest) {
        if let art = renderer.render(bytes, columns: request.columns, rows: request.rows, colours: request.colours) {
            post(.cover(request, .art(art)))
        } else {
            post(.cover(request, .placeholder("not an image crates reads")))
        }
    }

    /// Puts a fetch in line by when it was asked (asked again, it moves up), lets the oldest
    /// fall out past `lineLimit`, and starts the worker when none runs.
    private func queue(_ fetch: Fetch) {
        let dropped: [Fetch] = state.withLock { state in
            guard !state.stopped else { return [] }
            if let waiting = state.line.first(where: { $0.request == fetch.request }), waiting.asked > fetch.asked { return [] }
            state.line.removeAll { $0.request == fetch.request }
            let place = state.line.firstIndex { $0.asked > fetch.asked } ?? state.line.endIndex
            state.line.insert(fetch, at: place)
            let excess = max(0, state.line.count - Self.lineLimit)
            let dropped = Array(state.line.prefix(excess))
            state.line.removeFirst(excess)
            if state.worker == nil { state.worker = Task { await self.work() } }
            return dropped
        }
        for fetch in dropped { post(.cover(fetch.request, .loading)) }
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
