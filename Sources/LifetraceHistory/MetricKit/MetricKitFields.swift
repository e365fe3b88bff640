/// The fields of MetricKit's payloads as Apple documents them (docs/HISTORY.md, "MetricKit",
/// lists each with its page): what the history draws series from, and which fields a payload
/// may have. A field not listed here is kept all the same, and named in a note.
enum MetricKitFields {
    /// The histograms series are drawn from, by their path in the payload as MetricKit writes it
    /// (`MXAppLaunchMetric` and `MXAppResponsivenessMetric` write their histograms under names
    /// other than the properties': `histogrammedTimeToFirstDrawKey`, `histogrammedResumeTime`,
    /// `histogrammedAppHangTime`; Samples/metrickit/README.md names where each is attested): the
    /// name the history gives them.
    static let histogramMetrics: [String: String] = [
        "applicationLaunchMetrics.histogrammedTimeToFirstDrawKey": "launch",
        "applicationLaunchMetrics.histogrammedOptimizedTimeToFirstDrawKey": "launchOptimized",
        "applicationLaunchMetrics.histogrammedResumeTime": "resume",
        "applicationLaunchMetrics.histogrammedExtendedLaunch": "extendedLaunch",
        "applicationResponsivenessMetrics.histogrammedAppHangTime": "hang",
    ]

    /// Other documented histograms (kept, no series).
    static let documentedHistograms: Set<String> = [
        "cellularConditionMetrics.cellConditionTime",
        "signpostMetrics[].signpostIntervalData.histogrammedSignpostDurations",
    ]

    /// The history's name of the histogram at `path`, nil when no series is drawn from it.
    static func histogramMetric(_ path: String) -> String? { histogramMetrics[path] }

    /// The documented arrays of an `MXDiagnosticPayload`.
    static let diagnosticArrays: Set<String> = [
        "crashDiagnostics", "hangDiagnostics", "cpuExceptionDiagnostics", "diskWriteExceptionDiagnostics", "appLaunchDiagnostics",
    ]

    /// The exit counts of `MXForegroundExitData` and `MXBackgroundExitData`, by their JSON name,
    /// and the reason the history calls each.
    static let exitReasonNames: [String: String] = [
        "cumulativeNormalAppExitCount": "normal",
        "cumulativeAbnormalExitCount": "abnormal",
        "cumulativeAppWatchdogExitCount": "watchdog",
        "cumulativeMemoryResourceLimitExitCount": "memoryResourceLimit",
        "cumulativeMemoryPressureExitCount": "memoryPressure",
        "cumulativeCPUResourceLimitExitCount": "cpuResourceLimit",
        "cumulativeBadAccessExitCount": "badAccess",
        "cumulativeIllegalInstructionExitCount": "illegalInstruction",
        "cumulativeSuspendedWithLockedFileExitCount": "suspendedWithLockedFile",
        "cumulativeBackgroundTaskAssertionTimeoutExitCount": "backgroundTaskAssertionTimeout",
        "cumulativeBackgroundURLSessionCompletionTimeoutExitCount": "backgroundURLSessionCompletionTimeout",
        "cumulativeBackgroundFetchCompletionTimeoutExitCount": "backgroundFetchCompletionTimeout",
    ]

    /// The counts each context documents.
    static func exitReasons(_ context: String) -> Set<String> {
        context == "foreground"
            ? [
                "cumulativeNormalAppExitCount", "cumulativeAbnormalExitCount", "cumulativeAppWatchdogExitCount",
                "cumulativeMemoryResourceLimitExitCount", "cumulativeBadAccessExitCount", "cumulativeIllegalInstructionExitCount",
            ]
            : Set(exitReasonNames.keys)
    }

    /// The reason of an exit count's field: its name, or `cumulativeFooExitCount` -> `foo`.
    static func exitReason(_ field: String) -> String {
        if let name = exitReasonNames[field] { return name }
        let middle = field.dropFirst("cumulative".count).dropLast("ExitCount".count)
        return middle.prefix(1).lowercased() + middle.dropFirst()
    }

    /// The other documented fields of an `MXMetricPayload`, by path (`[]` for any index).
    static let metricFields: Set<String> = [
        "cpuMetrics.cumulativeCPUTime", "cpuMetrics.cumulativeCPUInstructions",
        "gpuMetrics.cumulativeGPUTime",
        "applicationTimeMetrics.cumulativeForegroundTime", "applicationTimeMetrics.cumulativeBackgroundTime",
        "applicationTimeMetrics.cumulativeBackgroundAudioTime", "applicationTimeMetrics.cumulativeBackgroundLocationTime",
        "locationActivityMetrics.cumulativeBestAccuracyTime", "locationActivityMetrics.cumulativeBestAccuracyForNavigationTime",
        "locationActivityMetrics.cumulativeNearestTenMetersAccuracyTime", "locationActivityMetrics.cumulativeHundredMetersAccuracyTime",
        "locationActivityMetrics.cumulativeKilometerAccuracyTime", "locationActivityMetrics.cumulativeThreeKilometersAccuracyTime",
        "networkTransferMetrics.cumulativeWifiUpload", "networkTransferMetrics.cumulativeWifiDownload",
        "networkTransferMetrics.cumulativeCellularUpload", "networkTransferMetrics.cumulativeCellularDownload",
        "diskIOMetrics.cumulativeLogicalWrites",
        "memoryMetrics.peakMemoryUsage", "memoryMetrics.averageSuspendedMemory.averageValue",
        "memoryMetrics.averageSuspendedMemory.standardDeviation", "memoryMetrics.averageSuspendedMemory.sampleCount",
        "displayMetrics.averagePixelLuminance.averageValue", "displayMetrics.averagePixelLuminance.standardDeviation",
        "displayMetrics.averagePixelLuminance.sampleCount",
        "animationMetrics.scrollHitchTimeRatio",
        "signpostMetrics[].signpostName", "signpostMetrics[].signpostCategory", "signpostMetrics[].totalSignpostCount",
        "signpostMetrics[].signpostIntervalData.signpostCumulativeCPUTime", "signpostMetrics[].signpostIntervalData.signpostAverageMemory",
        "signpostMetrics[].signpostIntervalData.signpostCumulativeLogicalWrites",
        "signpostMetrics[].signpostIntervalData.signpostCumulativeHitchTimeRatio",
        "multipleAppVersions", "metaData.bundleIdentifier", "metaData.pid", "metaData.isTestFlightApp", "metaData.lowPowerModeEnabled",
    ]

    /// The other documented fields of a diagnostic (`MXDiagnosticMetaData` and its subclasses'
    /// metadata), by path within the diagnostic.
    static let diagnosticFields: Set<String> = [
        "diagnosticMetaData.regionFormat", "diagnosticMetaData.platformArchitecture", "diagnosticMetaData.bundleIdentifier",
        "diagnosticMetaData.pid", "diagnosticMetaData.isTestFlightApp", "diagnosticMetaData.lowPowerModeEnabled",
        "diagnosticMetaData.exceptionType", "diagnosticMetaData.exceptionCode", "diagnosticMetaData.signal",
        "diagnosticMetaData.terminationReason", "diagnosticMetaData.virtualMemoryRegionInfo",
        "diagnosticMetaData.objectiveCexceptionReason.composedMessage", "diagnosticMetaData.objectiveCexceptionReason.formatString",
        "diagnosticMetaData.objectiveCexceptionReason.arguments[]", "diagnosticMetaData.objectiveCexceptionReason.exceptionType",
        "diagnosticMetaData.objectiveCexceptionReason.className", "diagnosticMetaData.objectiveCexceptionReason.exceptionName",
        "diagnosticMetaData.totalCPUTime", "diagnosticMetaData.totalSampledTime", "diagnosticMetaData.writesCaused",
    ]

    /// Whether Apple documents the field at `path` (a diagnostic's: within the diagnostic).
    static func documented(_ path: String, in kind: MetricKitPayload.Kind) -> Bool {
        let pattern = pattern(path)
        return kind == .metric ? metricFields.contains(pattern) : diagnosticFields.contains(pattern)
    }

    /// `signpostMetrics[3].signpostName` -> `signpostMetrics[].signpostName`.
    static func pattern(_ path: String) -> String {
        var out = ""
        var inIndex = false
        for character in path {
            if character == "[" { inIndex = true; out.append("[") } else if character == "]" { inIndex = false; out.append("]") } else if !inIndex { out.append(character) }
        }
        return out
    }
}
