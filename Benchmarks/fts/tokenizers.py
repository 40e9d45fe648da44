import sqlite3, random, time, os
random.seed(7)
words = "connection timeout request failed retry server response cache sync upload token refresh session user login logout network offline online battery location geofence inside outside scan barcode print receipt payment card declined approved".split()
codes = ["E_TIMEOUT","E_NETWORK","E_AUTH_EXPIRED","HTTP_503","ERR_SSL"]
hosts = ["com.example.checkin","com.example.clinicnotes","api.example.com","com.example.sales"]
def line():
    parts = random.sample(words, 6)
    if random.random()<0.2: parts.insert(2, random.choice(codes))
    if random.random()<0.2: parts.insert(1, random.choice(hosts))
    return " ".join(parts)
lines=[line() for _ in range(200000)]
queries = {"word":'"timeout"', "code":'"E_TIMEOUT"', "code-part":'"timeout"', "host":'"com.example.checkin"', "host-part":'"checkin"', "prefix-code":'"E_TIME"*', "prefix-host":'"com.exa"*', "two AND":'"retry" AND "server"'}
for name, tok in [("unicode61","unicode61 remove_diacritics 2"),("unicode61+tokenchars","unicode61 remove_diacritics 2 tokenchars '._'"),("trigram","trigram")]:
    path=f"/tmp/fts/{name}.db"
    if os.path.exists(path): os.remove(path)
    db=sqlite3.connect(path)
    db.execute("CREATE TABLE logs(id INTEGER PRIMARY KEY, message TEXT)")
    db.execute(f"CREATE VIRTUAL TABLE s USING fts5(message, content='logs', content_rowid='id', tokenize=\"{tok}\", prefix='2 3')" if name!="trigram" else f"CREATE VIRTUAL TABLE s USING fts5(message, content='logs', content_rowid='id', tokenize='trigram')")
    t=time.time()
    with db:
        db.executemany("INSERT INTO logs(message) VALUES (?)", [(l,) for l in lines])
        db.execute("INSERT INTO s(rowid, message) SELECT id, message FROM logs")
    ins=time.time()-t
    base=os.path.getsize(path)
    res=[]
    for q,expr in queries.items():
        t=time.time()
        try:
            n=db.execute("SELECT count(*) FROM s WHERE s MATCH ?", (expr,)).fetchone()[0]
            truth=None
        except Exception as e: n=str(e)[:30]
        res.append(f"{q}={n} ({(time.time()-t)*1000:.0f}ms)")
    db.execute("VACUUM")
    print(f"{name}: insert {len(lines)/ins:,.0f} lines/s, file {os.path.getsize(path)/len(lines):.0f} B/line; " + ", ".join(res))
