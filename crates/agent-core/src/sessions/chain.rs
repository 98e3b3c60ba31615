//! The conversation chain of a transcript (official `$p`, `qMe`, `ZMe`): compaction segments
//! relinked, the leaf chosen, the `parentUuid` chain walked back from it, and assistant messages
//! split over several entries (parallel tool calls) gathered back with their tool results.

use std::collections::{HashMap, HashSet};

use super::transcript::{block_ids, last_text, peek_message, Entry};

/// Relinks preserved compaction segments so the chain runs through them.
fn relink(entries: &mut [Entry<'_>], index: &HashMap<String, usize>) {
  let boundaries: Vec<usize> = (0..entries.len()).filter(|&i| entries[i].kind() == "system" && entries[i].subtype.as_deref() == Some("compact_boundary")).collect();
  for b in boundaries {
    let Some(meta) = entries[b].compact.clone() else { continue };
    if let Some(pm) = meta.preserved_messages {
      if pm.uuids.is_empty() || pm.uuids.iter().any(|u| !index.contains_key(u.as_ref())) {
        continue;
      }
      let anchor = pm.anchor.as_deref().map(str::to_string);
      let mut prev = anchor.clone();
      for u in &pm.uuids {
        let i = index[u.as_ref()];
        entries[i].relinked_parent = Some(prev.clone());
        prev = Some(u.to_string());
      }
      let first = pm.uuids[0].to_string();
      let last = pm.uuids[pm.uuids.len() - 1].to_string();
      for e in entries.iter_mut() {
        if e.parent().map(str::to_string) == anchor && anchor.is_some() && e.uuid() != first {
          e.relinked_parent = Some(Some(last.clone()));
        }
      }
    } else if let Some(seg) = meta.preserved_segment {
      let anchor = seg.anchor.as_deref().map(str::to_string);
      let head = seg.head.as_deref().unwrap_or("").to_string();
      if let Some(&h) = index.get(&head) {
        entries[h].relinked_parent = Some(anchor.clone());
      }
      let tail = seg.tail.as_deref().map(str::to_string);
      for e in entries.iter_mut() {
        if e.parent().map(str::to_string) == anchor && e.uuid() != head {
          e.relinked_parent = Some(tail.clone());
        }
      }
    }
  }
}

/// Walks the chain; returns the entries of the conversation, first to last, as indexes into
/// `entries` (where a uuid appears more than once, the last entry with it counts).
pub fn walk(entries: &mut Vec<Entry<'_>>) -> Vec<usize> {
  let mut by_uuid: HashMap<String, usize> = HashMap::with_capacity(entries.len());
  for (i, e) in entries.iter().enumerate() {
    by_uuid.insert(e.uuid().to_string(), i);
  }
  relink(entries, &by_uuid);
  // First position of each uuid in file order (the official orders by it).
  let mut first_pos: HashMap<&str, usize> = HashMap::with_capacity(entries.len());
  for (i, e) in entries.iter().enumerate() {
    first_pos.entry(e.uuid()).or_insert(i);
  }
  let pos = |u: &str| first_pos.get(u).map_or(-1i64, |p| *p as i64);
  // The map's values in insertion order: the first position of each uuid, holding its last entry.
  let mut order: Vec<(usize, usize)> = by_uuid.iter().map(|(u, &last)| (first_pos[u.as_str()], last)).collect();
  order.sort_unstable();
  let values: Vec<usize> = order.iter().map(|&(_, last)| last).collect();

  let is_main = |e: &Entry<'_>| !e.sidechain && !e.has_team() && e.kind() != "progress" && !(e.kind() == "attachment" && e.attachment.as_ref().and_then(|a| a.kind.as_deref()) == Some("fork_briefing"));
  let mut parents: HashSet<&str> = HashSet::new();
  let mut main_parents: HashSet<&str> = HashSet::new();
  for &i in &values {
    if let Some(p) = entries[i].parent().filter(|p| !p.is_empty()) {
      parents.insert(p);
      if is_main(&entries[i]) {
        main_parents.insert(p);
      }
    }
  }
  let mut leaves: Vec<usize> = values.iter().copied().filter(|&i| is_main(&entries[i]) && !main_parents.contains(entries[i].uuid())).collect();
  leaves.sort_by(|&a, &b| pos(entries[b].uuid()).cmp(&pos(entries[a].uuid())));
  let lookup = |u: Option<&str>| u.filter(|u| !u.is_empty()).and_then(|u| by_uuid.get(u).copied());
  let mut dead: HashSet<usize> = HashSet::new();
  let mut leaf: Option<usize> = None;
  for &l in &leaves {
    let mut path = Vec::new();
    let mut seen = HashSet::new();
    let mut cur = Some(l);
    while let Some(c) = cur {
      if dead.contains(&c) || seen.contains(&c) {
        break;
      }
      if entries[c].is_message() {
        leaf = Some(c);
        break;
      }
      seen.insert(c);
      path.push(c);
      cur = lookup(entries[c].parent());
    }
    if leaf.is_some() {
      break;
    }
    dead.extend(path);
  }
  let leaf = match leaf {
    Some(l) => l,
    None => {
      let terminals: Vec<usize> = values.iter().copied().filter(|&i| !parents.contains(entries[i].uuid())).collect();
      let mut found = Vec::new();
      for t in terminals {
        let mut cur = Some(t);
        let mut seen = HashSet::new();
        while let Some(c) = cur {
          if !seen.insert(c) {
            break;
          }
          if entries[c].is_message() {
            found.push(c);
            break;
          }
          cur = lookup(entries[c].parent());
        }
      }
      if found.is_empty() {
        return Vec::new();
      }
      let main: Vec<usize> = found.iter().copied().filter(|&i| !entries[i].sidechain && !entries[i].has_team() && !entries[i].meta).collect();
      let pick = if main.is_empty() { &found } else { &main };
      let mut best = pick[0];
      for &c in pick.iter().skip(1) {
        if pos(entries[c].uuid()) > pos(entries[best].uuid()) {
          best = c;
        }
      }
      best
    }
  };
  let mut chain = Vec::new();
  let mut seen = HashSet::new();
  let mut cur = Some(leaf);
  while let Some(c) = cur {
    if !seen.insert(entries[c].uuid().to_string()) {
      break;
    }
    chain.push(c);
    cur = lookup(entries[c].parent());
  }
  chain.reverse();
  gather_split(entries, &values, chain)
}

/// Puts back the other parts of assistant messages the chain passes through (entries with the
/// same `message.id`) and the tool results answering them (official `qMe`).
fn gather_split(entries: &[Entry<'_>], values: &[usize], chain: Vec<usize>) -> Vec<usize> {
  let assistants: Vec<usize> = chain.iter().copied().filter(|&i| entries[i].kind() == "assistant").collect();
  if assistants.is_empty() {
    return chain;
  }
  // Each entry's message id and tool ids, parsed once.
  struct Facts {
    id: Option<String>,
    uses: Vec<String>,
    results: Vec<String>,
  }
  let facts: Vec<Facts> = entries
    .iter()
    .map(|e| {
      let is_msg = e.is_message();
      Facts {
        id: if e.kind() == "assistant" { peek_message(e).id.map(|s| s.into_owned()) } else { None },
        uses: if e.kind() == "assistant" && mentions(e, "tool_use") { block_ids(e, "tool_use") } else { Vec::new() },
        results: if is_msg && e.kind() == "user" && mentions(e, "tool_result") { block_ids(e, "tool_result") } else { Vec::new() },
      }
    })
    .collect();
  let msg_id = |i: usize| -> Option<String> { facts[i].id.clone() };
  let ids_of = |i: usize, kind: &str| -> Vec<String> { if kind == "tool_use" { facts[i].uses.clone() } else { facts[i].results.clone() } };
  let mut in_chain: HashSet<String> = chain.iter().map(|&i| entries[i].uuid().to_string()).collect();
  let mut chain_by_id: HashMap<String, usize> = HashMap::new();
  for &a in &assistants {
    if let Some(id) = msg_id(a) {
      chain_by_id.insert(id, a);
    }
  }
  let mut parts: HashMap<String, Vec<usize>> = HashMap::new();
  let mut tool_owner: HashMap<String, Option<usize>> = HashMap::new();
  let mut results: Vec<usize> = Vec::new();
  let is_tool_result = |i: usize| {
    let e = &entries[i];
    e.kind() == "user" && e.parent().map_or(false, |p| !p.is_empty()) && has_result_block(e)
  };
  for &i in values {
    if let Some(id) = msg_id(i) {
      parts.entry(id.clone()).or_default().push(i);
      for t in ids_of(i, "tool_use") {
        let prev = tool_owner.get(&t).copied();
        let v = match prev {
          None => Some(i),
          Some(Some(w)) if msg_id(w).as_deref() == Some(id.as_str()) => Some(i),
          _ => None,
        };
        tool_owner.insert(t, v);
      }
    } else if is_tool_result(i) {
      results.push(i);
    }
  }
  let same_side = |a: usize, b: usize| entries[a].sidechain == entries[b].sidechain && entries[a].agent_id == entries[b].agent_id;
  let by_uuid: HashMap<&str, usize> = values.iter().map(|&i| (entries[i].uuid(), i)).collect();
  let mut children: HashMap<String, Vec<usize>> = HashMap::new();
  let mut added: HashSet<(String, usize)> = HashSet::new();
  let mut add = |parent: &str, child: usize, children: &mut HashMap<String, Vec<usize>>| {
    if added.insert((parent.to_string(), child)) {
      children.entry(parent.to_string()).or_default().push(child);
    }
  };
  for &r in &results {
    let p = entries[r].parent().unwrap_or("").to_string();
    add(&p, r, &mut children);
    if let Some(src) = entries[r].source_tool_assistant.as_deref() {
      if Some(src) != entries[r].parent() {
        if let Some(&s) = by_uuid.get(src) {
          if same_side(r, s) {
            add(entries[s].uuid(), r, &mut children);
          }
        }
      }
    }
    for t in ids_of(r, "tool_result") {
      if let Some(Some(owner)) = tool_owner.get(&t) {
        if same_side(r, *owner) {
          add(entries[*owner].uuid(), r, &mut children);
        }
      }
    }
  }
  let mut answered: HashSet<String> = HashSet::new();
  for &c in &chain {
    answered.extend(ids_of(c, "tool_result"));
  }
  let file_order: HashMap<&str, usize> = values.iter().enumerate().map(|(n, &i)| (entries[i].uuid(), n)).collect();
  let mut done_ids = HashSet::new();
  let mut insert_after: HashMap<String, Vec<usize>> = HashMap::new();
  let mut total = 0;
  for &a in &assistants {
    let Some(id) = msg_id(a) else { continue };
    if !done_ids.insert(id.clone()) {
      continue;
    }
    let group = parts.get(&id).cloned().unwrap_or_else(|| vec![a]);
    let group_uuids: HashSet<&str> = group.iter().map(|&i| entries[i].uuid()).collect();
    let mut missing: Vec<usize> = group.iter().copied().filter(|&i| !in_chain.contains(entries[i].uuid())).collect();
    let mut direct = Vec::new();
    let mut other = Vec::new();
    let mut seen_child = HashSet::new();
    for &m in &group {
      for &c in children.get(entries[m].uuid()).map(Vec::as_slice).unwrap_or(&[]) {
        if in_chain.contains(entries[c].uuid()) || !seen_child.insert(c) {
          continue;
        }
        if entries[c].parent().map_or(false, |p| group_uuids.contains(p)) {
          direct.push(c);
        } else {
          other.push(c);
        }
      }
    }
    if !other.is_empty() {
      let mut have: HashSet<String> = answered.clone();
      for &d in &direct {
        have.extend(ids_of(d, "tool_result"));
      }
      other.sort_by_key(|&o| file_order.get(entries[o].uuid()).copied().unwrap_or(usize::MAX));
      for o in other {
        let ids = ids_of(o, "tool_result");
        let wanted = ids.iter().any(|t| !have.contains(t) && tool_owner.get(t).copied().flatten().map_or(false, |w| group_uuids.contains(entries[w].uuid())));
        if !wanted {
          continue;
        }
        have.extend(ids);
        direct.push(o);
      }
    }
    if missing.is_empty() && direct.is_empty() {
      continue;
    }
    let ts = |i: &usize| entries[*i].timestamp.as_deref().unwrap_or("").to_string();
    missing.sort_by_key(ts);
    direct.sort_by_key(ts);
    let anchor = chain_by_id.get(&id).copied().unwrap_or(a);
    let mut all = missing;
    all.extend(direct);
    for &i in &all {
      in_chain.insert(entries[i].uuid().to_string());
    }
    total += all.len();
    insert_after.insert(entries[anchor].uuid().to_string(), all);
  }
  if total == 0 {
    return chain;
  }
  let mut out = Vec::with_capacity(chain.len() + total);
  for c in chain {
    out.push(c);
    if let Some(extra) = insert_after.get(entries[c].uuid()) {
      out.extend(extra.iter().copied());
    }
  }
  out
}

/// Whether the message's JSON text contains `word` at all (a cheap filter before parsing it).
fn mentions(e: &Entry<'_>, word: &str) -> bool {
  e.message.map_or(false, |m| super::scan::has(m.get(), word))
}

fn has_result_block(e: &Entry<'_>) -> bool {
  // A quick text check first: most user entries are prompts.
  e.message.map_or(false, |m| super::scan::has(m.get(), "tool_result")) && super::transcript::blocks(e).iter().any(|b| b.kind.as_deref() == Some("tool_result"))
}

/// Marks the slash-command records and their output that follow a local-command caveat
/// (official `ZMe`).
pub fn mark_local_commands(entries: &mut [Entry<'_>], list: &[usize]) {
  let class = |e: &Entry<'_>| -> Option<&'static str> {
    if e.prompt_source.is_some() {
      return None;
    }
    let t = last_text(e)?;
    [("<command-name>", "record"), ("<local-command-stdout>", "output"), ("<local-command-stderr>", "output"), ("<local-command-caveat>", "caveat")]
      .iter()
      .find(|(p, _)| t.starts_with(p))
      .map(|(_, c)| *c)
  };
  let mut marks = Vec::new();
  for (n, &i) in list.iter().enumerate() {
    let e = &entries[i];
    if e.kind() != "user" || !e.meta || class(e) != Some("caveat") {
      continue;
    }
    let mut recorded = false;
    for &j in &list[n + 1..] {
      let f = &entries[j];
      if f.kind() == "assistant" {
        break;
      }
      if f.kind() != "user" || f.meta {
        continue;
      }
      let c = class(f);
      if c == Some("record") && !recorded {
        recorded = true;
      } else if c != Some("output") || !recorded {
        break;
      }
      marks.push(j);
    }
  }
  for j in marks {
    entries[j].completed_local_command = true;
  }
}
