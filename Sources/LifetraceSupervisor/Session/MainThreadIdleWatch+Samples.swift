import LifetraceFormat
import LifetraceRecorder

extension MainThreadIdleWatch: StackSampleSink {
    /// Passes a stack sample on to the trace (samples are kept beside the events).
    func appendSample(timestamp: Int64, thread: ThreadID, frames: [UInt64]) throws(TraceError) {
        try (target as? any StackSampleSink)?.appendSample(timestamp: timestamp, thread: thread, frames: frames)
    }

    /// Passes a loaded image on to the trace.
    func appendImage(_ image: LoadedImage) throws(TraceError) {
        try (target as? any StackSampleSink)?.appendImage(image)
    }
}
