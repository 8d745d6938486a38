package npb

import "sync"

// parallelFor splits [0, n) into threads contiguous chunks and runs fn on
// each at once, as an OpenMP static schedule does, and waits.
func parallelFor(threads, n int, fn func(worker, lo, hi int)) {
	if threads <= 1 || n <= 1 {
		fn(0, 0, n)
		return
	}
	if threads > n {
		threads = n
	}
	var wg sync.WaitGroup
	for w := 0; w < threads; w++ {
		lo, hi := n*w/threads, n*(w+1)/threads
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(w, lo, hi)
		}()
	}
	wg.Wait()
}
