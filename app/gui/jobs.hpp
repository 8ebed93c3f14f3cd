// The GUI's worker thread: one job at a time, newest request wins. Submitting supersedes the
// pending request and cancels the running one (the engine sees the same flag through
// RunControl and stops at its next check); only the newest job's outcome is ever handed back,
// so the result shown is always the latest request's. The work itself is a function
// (compute.cpp in the app, a fake in tests). Beside it, BackgroundThreads: the threads a
// result starts for itself (an exact window, a landscape), which the GUI joins before it exits.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace dpviz::gui {

// What a running job sees: whether it was cancelled or superseded, and where to report its
// stage and progress.
class JobContext {
public:
    bool cancelled() const { return cancel_->load(std::memory_order_relaxed); }
    void set_stage(const std::string& stage);
    // For the engine's RunControl: the flag set on cancel or supersede, and a progress sink.
    const std::atomic<bool>* cancel_flag() const { return cancel_.get(); }
    void set_progress(double fraction);  // [0, 1] of the current stage's work; -1 = unknown

private:
    friend class JobRunnerBase;
    std::shared_ptr<std::atomic<bool>> cancel_ = std::make_shared<std::atomic<bool>>(false);
    std::mutex* mutex_ = nullptr;
    std::string* stage_ = nullptr;
    double* fraction_ = nullptr;
};

struct JobProgress {
    bool busy = false;
    bool running_cancelled = false;  // still running, but its outcome will be dropped
    uint64_t running_id = 0;
    std::string stage;
    double fraction = -1.0;  // reported by the engine; -1 = unknown
    double elapsed_s = 0.0;
};

// The type-independent part: thread, queue of one, cancellation, progress.
class JobRunnerBase {
public:
    JobRunnerBase(const JobRunnerBase&) = delete;
    JobRunnerBase& operator=(const JobRunnerBase&) = delete;

    // Drops the pending request and cancels the running one (its outcome is discarded).
    void cancel();
    JobProgress progress() const;
    uint64_t newest_id() const;
    // Called on the worker thread after every job (the GUI wakes its event loop with it, so a
    // finished job is picked up at once while the loop otherwise sleeps between frames).
    void set_on_finish(std::function<void()> f);

protected:
    JobRunnerBase() = default;
    ~JobRunnerBase() = default;
    void start();
    void stop();  // joins; the running job finishes first
    uint64_t enqueue(std::function<void(uint64_t, JobContext&)> work);
    // Called by the worker after a job: keep its outcome only if it is still the newest.
    bool still_wanted(uint64_t id, const JobContext& ctx) const;

    mutable std::mutex mutex_;

private:
    void loop();

    std::condition_variable wake_;
    std::thread thread_;
    bool stopping_ = false;
    uint64_t next_id_ = 0;
    uint64_t newest_ = 0;
    std::function<void(uint64_t, JobContext&)> pending_;
    std::function<void()> on_finish_;
    uint64_t pending_id_ = 0;
    uint64_t running_id_ = 0;
    std::shared_ptr<std::atomic<bool>> running_cancel_;
    std::string stage_;
    double fraction_ = -1.0;
    std::chrono::steady_clock::time_point started_;
};

template <class Request, class Outcome>
class JobRunner : public JobRunnerBase {
public:
    using Work = std::function<Outcome(const Request&, JobContext&)>;
    explicit JobRunner(Work work) : work_(std::move(work)) { start(); }
    ~JobRunner() { stop(); }

    // Returns the job's id; every earlier job is superseded.
    uint64_t submit(Request req) {
        return enqueue([this, req = std::move(req)](uint64_t id, JobContext& ctx) {
            Outcome out = work_(req, ctx);
            std::lock_guard lock(mutex_);
            if (still_wanted(id, ctx)) finished_ = std::make_pair(id, std::move(out));
        });
    }
    // The newest job's outcome, once, when it has finished.
    std::optional<std::pair<uint64_t, Outcome>> take() {
        std::lock_guard lock(mutex_);
        auto out = std::move(finished_);
        finished_.reset();
        return out;
    }

private:
    Work work_;
    std::optional<std::pair<uint64_t, Outcome>> finished_;
};

// Threads a result starts beside the worker (a store result's exact window, its landscape):
// each runs to its end, and join_all, which the GUI calls before it exits, stops every one that
// can stop early (its cancel flag) and waits for them all, so none outlives the GUI's state, its
// GPU context or the process's static objects. Threads that have ended are joined as new ones
// start.
class BackgroundThreads {
public:
    BackgroundThreads() = default;
    BackgroundThreads(const BackgroundThreads&) = delete;
    BackgroundThreads& operator=(const BackgroundThreads&) = delete;
    ~BackgroundThreads() { join_all(); }

    // Runs `work` on a thread of its own; join_all sets `cancel` (when given) first.
    void run(std::function<void()> work, std::shared_ptr<std::atomic<bool>> cancel = nullptr);
    void join_all();
    int running() const;  // threads started that have not ended

private:
    struct Entry {
        std::thread thread;
        std::shared_ptr<std::atomic<bool>> ended, cancel;
    };
    mutable std::mutex mutex_;
    std::vector<Entry> threads_;
};

// The GUI's: compute.cpp starts its threads on it, gui.cpp joins them before it exits.
BackgroundThreads& background_threads();

}  // namespace dpviz::gui
