import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect-sql';

/**
 * Each branch keeps how many versions it has (`branches.version_count`), kept by triggers on
 * versions in the writing transaction (insert, delete, a move to another branch), so the
 * dashboard's, project page's and branch list's counts are read, not counted per request
 * (150 index scans for a dashboard page of 50 projects). Each project keeps how many branches it
 * has (`projects.branch_count`) the same way, for the stats' branch total (a join of every
 * branch of a person's projects before). On PostgreSQL branch pages keep room
 * for those updates (fillfactor 70).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table branches add column version_count integer not null default 0`.execute(db);
  await sql`update branches set version_count =
    (select count(*) from versions where versions.branch_id = branches.id)`.execute(db);
  await sql`alter table projects add column branch_count integer not null default 0`.execute(db);
  await sql`update projects set branch_count =
    (select count(*) from branches where branches.project_id = projects.id)`.execute(db);
  if (dialectOf(db) === 'sqlite') {
    await sql`create trigger branches_count_insert after insert on branches begin
      update projects set branch_count = branch_count + 1 where id = new.project_id;
    end`.execute(db);
    await sql`create trigger branches_count_delete after delete on branches begin
      update projects set branch_count = branch_count - 1 where id = old.project_id;
    end`.execute(db);
    await sql`create trigger versions_count_insert after insert on versions begin
      update branches set version_count = version_count + 1 where id = new.branch_id;
    end`.execute(db);
    await sql`create trigger versions_count_delete after delete on versions begin
      update branches set version_count = version_count - 1 where id = old.branch_id;
    end`.execute(db);
    await sql`create trigger versions_count_move after update of branch_id on versions
      when new.branch_id is not old.branch_id begin
      update branches set version_count = version_count - 1 where id = old.branch_id;
      update branches set version_count = version_count + 1 where id = new.branch_id;
    end`.execute(db);
    return;
  }
  // Room on each page for the counts' updates to stay there (HOT updates: no new index entries,
  // in the name's trigram index neither), new pages only; existing rows move as they are updated.
  await sql`alter table branches set (fillfactor = 70)`.execute(db);
  await sql`create function versions_count_branch() returns trigger language plpgsql as $$
    begin
      if tg_op in ('DELETE', 'UPDATE') then
        update branches set version_count = version_count - 1 where id = old.branch_id;
      end if;
      if tg_op in ('INSERT', 'UPDATE') then
        update branches set version_count = version_count + 1 where id = new.branch_id;
      end if;
      return null;
    end
  $$`.execute(db);
  await sql`create trigger versions_count_insert_delete after insert or delete on versions
    for each row execute function versions_count_branch()`.execute(db);
  await sql`create trigger versions_count_move after update of branch_id on versions
    for each row when (new.branch_id is distinct from old.branch_id)
    execute function versions_count_branch()`.execute(db);
  await sql`create function branches_count_project() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' then
        update projects set branch_count = branch_count - 1 where id = old.project_id;
      else
        update projects set branch_count = branch_count + 1 where id = new.project_id;
      end if;
      return null;
    end
  $$`.execute(db);
  await sql`create trigger branches_count_insert_delete after insert or delete on branches
    for each row execute function branches_count_project()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql`drop trigger if exists versions_count_move on versions`.execute(db);
    await sql`drop trigger if exists versions_count_insert_delete on versions`.execute(db);
    await sql`drop function if exists versions_count_branch()`.execute(db);
    await sql`drop trigger if exists branches_count_insert_delete on branches`.execute(db);
    await sql`drop function if exists branches_count_project()`.execute(db);
    await sql`alter table branches reset (fillfactor)`.execute(db);
  } else {
    for (const trigger of [
      'versions_count_move',
      'versions_count_delete',
      'versions_count_insert',
      'branches_count_insert',
      'branches_count_delete',
    ])
      await sql`drop trigger if exists ${sql.id(trigger)}`.execute(db);
  }
  await sql`alter table branches drop column version_count`.execute(db);
  await sql`alter table projects drop column branch_count`.execute(db);
}
