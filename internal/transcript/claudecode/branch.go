package claudecode

// Line states while choosing the active branch.
const (
	lineUnknown uint8 = iota
	lineKept
	lineDropped
	lineVisiting
)

// activeLines marks the entries that belong to the conversation as the
// user last saw it. From the last line not yet decided, the chain of
// parents is kept; each side branch hanging off that chain is kept unless
// it holds a line that starts a turn (a prompt abandoned by a rewind).
// Lines not connected to any chain so far are decided the same way from
// their own last line, so an excerpt or a file without parentUuid is read
// whole. One exception: an earlier tree whose root says it has no parent
// and that holds a prompt is what a rewind to the very first prompt
// leaves behind, and is dropped (unless the active chain itself starts at
// a compaction boundary that lost its link to the history before it).
func activeLines(es []*entry) []bool {
	n := len(es)
	index := make(map[string]int, n)
	for i, e := range es {
		if _, dup := index[e.key]; !dup {
			index[e.key] = i
		}
	}
	parent := make([]int, n)
	children := make([][]int, n)
	for i, e := range es {
		parent[i] = -1
		if e.parent == "" {
			continue
		}
		if p, ok := index[e.parent]; ok && p != i {
			parent[i] = p
			children[p] = append(children[p], i)
		}
	}

	state := make([]uint8, n)
	var chain, stack, sub []int
	first := true
	keepRootedTrees := false
	for leaf := n - 1; leaf >= 0; leaf-- {
		if state[leaf] != lineUnknown {
			continue
		}
		chain = chain[:0]
		// A cycle ends the walk at the first line already kept.
		for i := leaf; i >= 0 && state[i] == lineUnknown; i = parent[i] {
			state[i] = lineKept
			chain = append(chain, i)
		}
		root := es[chain[len(chain)-1]].rec
		switch {
		case first && treeHas(es, chain, children, isTalk):
			// The conversation the user last saw. Only if it is a tree
			// of its own that begins with a prompt can an earlier rooted
			// tree be a rewind's leftover.
			first = false
			keepRootedTrees = root.isCompactBoundary() || !treeHas(es, chain, children, isPrompt)
		case !first && !keepRootedTrees && root.isRoot() && treeHas(es, chain, children, isPrompt):
			dropTree(chain, children, state)
			continue
		}
		for _, c := range chain {
			for _, child := range children[c] {
				if state[child] != lineUnknown {
					continue
				}
				sub = sub[:0]
				stack = append(stack[:0], child)
				state[child] = lineVisiting
				abandoned := false
				for len(stack) > 0 {
					i := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					sub = append(sub, i)
					if es[i].user.startsTurn() {
						abandoned = true
					}
					for _, ch := range children[i] {
						if state[ch] == lineUnknown {
							state[ch] = lineVisiting
							stack = append(stack, ch)
						}
					}
				}
				mark := lineKept
				if abandoned {
					mark = lineDropped
				}
				for _, i := range sub {
					state[i] = mark
				}
			}
		}
	}
	keep := make([]bool, n)
	for i, s := range state {
		keep[i] = s == lineKept
	}
	return keep
}

func isTalk(e *entry) bool   { return e.rec.Type == "user" || e.rec.Type == "assistant" }
func isPrompt(e *entry) bool { return e.user.startsTurn() }

// treeHas reports whether the tree holding chain has a line for which
// match is true. The chain's root is the tree's root.
func treeHas(es []*entry, chain []int, children [][]int, match func(*entry) bool) bool {
	root := chain[len(chain)-1]
	stack := []int{root}
	seen := map[int]bool{root: true}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if match(es[i]) {
			return true
		}
		for _, ch := range children[i] {
			if !seen[ch] {
				seen[ch] = true
				stack = append(stack, ch)
			}
		}
	}
	return false
}

// dropTree marks the whole tree holding chain as abandoned.
func dropTree(chain []int, children [][]int, state []uint8) {
	root := chain[len(chain)-1]
	stack := []int{root}
	state[root] = lineDropped
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, ch := range children[i] {
			if state[ch] != lineDropped {
				state[ch] = lineDropped
				stack = append(stack, ch)
			}
		}
	}
}
