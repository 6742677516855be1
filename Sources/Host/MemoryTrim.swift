#if canImport(Glibc)
    import CSystem
#endif

/// Returns freed heap memory to the operating system.
///
/// A join storm or a burst of broadcasts leaves large freed buffers in malloc's arenas; on Linux
/// glibc keeps them resident until asked. Trimming every few seconds keeps an idle hall's
/// resident memory proportional to its connections, not to its busiest moment.
enum MemoryTrim {
    static func releaseFreePages() {
        #if canImport(Glibc)
            _ = malloc_trim(0)
        #endif
    }
}
