#!/usr/bin/env python3
"""Re-wraps the line comments that LineCommentsTest finds broken: a `//` line that leaves room on it for the next
line's first word and does not end a sentence (the formatter wraps a line comment past 90 columns and leaves the
rest on a line of its own). Each such comment block is re-filled greedily to 90 columns (tabs as 4).
Usage: reflow-comments.py FILE..."""
import re,glob,sys
W=90
def flagged_pairs(lines):
    out=[]
    for i in range(len(lines)-1):
        a=re.match(r'^(\s*)//(.*)$',lines[i]); b=re.match(r'^(\s*)//(.*)$',lines[i+1])
        if a and b and a.group(1)==b.group(1):
            ta=a.group(2).rstrip(); tb=b.group(2).strip()
            if not tb or not ta.strip(): continue
            first=tb.split()[0]
            if len(lines[i].rstrip().expandtabs(4))+1+len(first)<=W and not re.search(r'[.:;!?]$',ta) and not tb.startswith('-'):
                out.append(i)
    return out
for p in sys.argv[1:]:
    lines=open(p).read().split('\n')
    fl=set(flagged_pairs(lines))
    if not fl: continue
    i=0; res=[]
    while i<len(lines):
        if i in fl:
            # find block start/end
            ind=re.match(r'^(\s*)//',lines[i]).group(1)
            s=i
            while s-1>=0 and re.match('^'+re.escape(ind)+r'//',lines[s-1]) and res and res[-1]==lines[s-1]:
                s-=1; res.pop()
            e=i
            while e+1<len(lines) and re.match('^'+re.escape(ind)+r'//(?!\s*$)',lines[e+1]): e+=1
            words=' '.join(re.sub(r'^\s*// ?','',l).strip() for l in lines[s:e+1]).split()
            cur=ind+'//'
            for w in words:
                cand=cur+' '+w
                if len(cand.expandtabs(4))>W and cur!=ind+'//':
                    res.append(cur); cur=ind+'// '+w
                else: cur=cand
            res.append(cur)
            i=e+1
        else:
            res.append(lines[i]); i+=1
    open(p,'w').write('\n'.join(res))
    print('reflowed',p)
