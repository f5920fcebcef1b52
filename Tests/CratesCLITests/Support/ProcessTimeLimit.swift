import Testing

extension Trait where Self == TimeLimitTrait {
    /// Every test of a suite that runs crates as a process: a hang (a child that never
    /// exits, a tmux that never answers) fails that test within minutes, with its name,
    /// rather than the whole run at `make test`'s limit. Ten minutes is far over the slowest
    /// test's time on a one-core machine (under 3 minutes).
    static var processTimeLimit: Self { .timeLimit(.minutes(10)) }
}
