// The worker thread behind JobRunner and the background threads (see jobs.hpp).
#include "gui/jobs.hpp"

#include <algorithm>

namespace dpviz::gui {

void JobContext::set_stage(const std::string& stage) {
    if (!mutex_) return;
    std::lock_guard lock(*mutex_);
    *stage_ = stage;
    *fraction_ = -1.0;
}

void JobContext::set_progress(double fraction) {
    if (!mutex_) return;
    std::lock_guard lock(*mutex_);
    *fraction_ = fraction;
}

void JobRunnerBase::start() { thread_ = std::thread([this] { loop(); }); }

void JobRunnerBase::stop() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
        pending_ = nullptr;
        if (running_cancel_) running_cancel_->store(true);
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

uint64_t JobRunnerBase::enqueue(std::function<void(uint64_t, JobContext&)> work) {
    uint64_t id;
    {
        std::lock_guard lock(mutex_);
        id = ++next_id_;
        newest_ = id;
        pending_ = std::move(work);  // a request not yet started is simply replaced
        pending_id_ = id;
        if (running_cancel_) running_cancel_->store(true);
    }
    wake_.notify_all();
    return id;
}

void JobRunnerBase::cancel() {
    std::lock_guard lock(mutex_);
    pending_ = nullptr;
    newest_ = ++next_id_;  // nothing submitted so far is wanted any more
    if (running_cancel_) running_cancel_->store(true);
}

bool JobRunnerBase::still_wanted(uint64_t id, const JobContext& ctx) const {
    return id == newest_ && !ctx.cancelled();
}

uint64_t JobRunnerBase::newest_id() const {
    std::lock_guard lock(mutex_);
    return newest_;
}

JobProgress JobRunnerBase::progress() const {
    std::lock_guard lock(mutex_);
    JobProgress p;
    p.busy = running_id_ != 0 || pending_ != nullptr;
    p.running_id = running_id_;
    p.running_cancelled = running_cancel_ && running_cancel_->load();
    p.stage = running_id_ ? stage_ : (pending_ ? "queued" : "");
    p.fraction = running_id_ ? fraction_ : -1.0;
    if (running_id_) p.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    return p;
}

void JobRunnerBase::loop() {
    for (;;) {
        std::function<void(uint64_t, JobContext&)> work;
        uint64_t id = 0;
        JobContext ctx;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [&] { return stopping_ || pending_ != nullptr; });
            if (stopping_) return;
            work = std::move(pending_);
            pending_ = nullptr;
            id = pending_id_;
            running_id_ = id;
            running_cancel_ = ctx.cancel_;
            stage_ = "starting";
            fraction_ = -1.0;
            started_ = std::chrono::steady_clock::now();
            ctx.mutex_ = &mutex_;
            ctx.stage_ = &stage_;
            ctx.fraction_ = &fraction_;
        }
        work(id, ctx);
        std::function<void()> notify;
        {
            std::lock_guard lock(mutex_);
            running_id_ = 0;
            running_cancel_.reset();
            stage_.clear();
            notify = on_finish_;
        }
        if (notify) notify();
    }
}

void JobRunnerBase::set_on_finish(std::function<void()> f) {
    std::lock_guard lock(mutex_);
    on_finish_ = std::move(f);
}

void BackgroundThreads::run(std::function<void()> work, std::shared_ptr<std::atomic<bool>> cancel) {
    std::lock_guard lock(mutex_);
    for (auto it = threads_.begin(); it != threads_.end();) {  // join the ones that have ended
        if (it->ended->load()) {
            it->thread.join();
            it = threads_.erase(it);
        } else {
            ++it;
        }
    }
    auto ended = std::make_shared<std::atomic<bool>>(false);
    threads_.push_back({std::thread([work = std::move(work), ended] {
                            work();
                            ended->store(true);
                        }),
                        ended, std::move(cancel)});
}

void BackgroundThreads::join_all() {
    std::vector<Entry> all;
    {
        std::lock_guard lock(mutex_);
        all.swap(threads_);
    }
    for (Entry& e : all)
        if (e.cancel) e.cancel->store(true);
    for (Entry& e : all) e.thread.join();
}

int BackgroundThreads::running() const {
    std::lock_guard lock(mutex_);
    return int(std::count_if(threads_.begin(), threads_.end(), [](const Entry& e) { return !e.ended->load(); }));
}

BackgroundThreads& background_threads() {
    static BackgroundThreads threads;
    return threads;
}

}  // namespace dpviz::gui
